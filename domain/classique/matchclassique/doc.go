// Package matchclassique is the classique match aggregate: one game between two
// players under fisf-reglement-classique.txt, recorded as events in the
// stream "match-<id>".
//
// Every change goes through one transition function (apply): a command
// method validates against the current state, builds the event and applies
// it with the same function a replay uses, so live state and replayed state
// cannot differ. A refused command returns an *erreur.Erreur with a stable Code and
// changes nothing.
//
// Rules, by article of the regulation:
//   - §3.1 who starts: designated by the software (pairing balances starts)
//     or by drawing letters (PremierParTirage); in a best-of-three, game 2
//     starts with the player who did not start game 1.
//   - §3.2.2 first racks: the starting player draws seven letters, then his
//     opponent; §4.1.4 after a word the player completes his rack to seven
//     (or takes what is left). Draws are recorded letter by letter (Tirage);
//     who draws which letters is the caller's business (TirerAuHasard helps).
//   - §4.1 a word is validated and scored by the engine (engine/play); a
//     joker is written in lower case, the letter it stands for (§4.1.3). A
//     word that is not in the lexicon can be played: it stays unless
//     contested (§5.4).
//   - §4.2 pass; six consecutive passes end the game (§7 refus de jeu).
//   - §4.3 exchange only while at least seven letters are in the bag, never
//     together with a word, and not once the opponent's time is out (§7).
//   - §5 contestation of the last play by the opponent before he acts: all
//     words refused → play withdrawn, turn lost; all admitted → 5 points per
//     word taken from the contester; mixed → withdrawn and 5 points per word
//     contested wrongly. A withdrawn play is not an announced pass and does
//     not count towards the six passes.
//   - §6/§7 time exhausted: that player may only pass (and contest); when
//     both clocks are out each deducts his rack.
//   - §7 endings: reliquat épuisé (the finisher gains the opponent's rack
//     value, the opponent loses it; the opponent may still contest the last
//     play, then closes the game with Cloturer), blocage (bag below seven and
//     both players passed since the last word: each deducts his rack),
//     temps épuisé, six passes. Win by at least one point, else ex æquo;
//     points de match 3/2/1.
//   - §4.1.3, §8, §9 penalties of 5 points (per letter for letters drawn in
//     excess or too early).
//   - §9 abandon table (450/350), abandon agreed (loser 1 point de match) or
//     unilateral (0), defeat by arbiter's decision on the same model (0),
//     with 8 letters a defeat by 100 points, forfeit of an absent player (0).
//   - §2.1.5/§7 the feuille de match signed by both players is the result
//     (FeuilleValidee); a disagreement is recorded and the arbiter decides.
package matchclassique
