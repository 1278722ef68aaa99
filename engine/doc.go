// Package engine groups the pure, deterministic Scrabble machinery of Arbitre:
// tiles (tile), the board and FISF references (board), the lexicon (lexicon),
// move generation and the top (movegen), validation and scoring of one given
// move for bulletin correction (play), and the batch contract of
// `arbitre engine solve` (solve). None of it performs I/O except the lexicon
// loaders, and the hot paths allocate nothing once warm.
package engine
