/**
 * Agents as they load a server: sessions of many turns read from an agent trace ({@link dev.llmbench.agents.AgentTrace}),
 * each turn resending its history with the server's live reply, the trace's tool time between turns, and sub-agents
 * fanned out after a turn and joined before the parent's next. A user needs it to size a deployment for coding or
 * research agents rather than for single requests (docs/agents.md).
 */
package dev.llmbench.agents;
