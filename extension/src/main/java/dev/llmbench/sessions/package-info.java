/**
 * Multi-turn conversations ({@link Sessions}): each turn resends the history with the server's live reply, the user
 * thinks between turns, and the level reports its figures by turn.
 */
package dev.llmbench.sessions;
