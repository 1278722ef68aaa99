// Package pairing proposes the tables of a classique round (appariement):
// who plays whom, who starts, and at most one bye against a fictitious
// player. The director may amend the proposal; that is the tournament
// aggregate's business, not this package's.
//
// Methods (see Method):
//   - Swiss: a minimum-cost perfect matching (exact, Edmonds' blossom
//     algorithm) whose cost ranks, in strict priority order, repeat pairings,
//     score-group gaps (points de match), start balance and a Dutch-style
//     tie-break; see swiss_cost.go for the exact cost.
//   - InitialByCote: top half against bottom half by cote.
//   - RoundRobin: Berger tables.
//   - KingOfTheHill: 1 v 2, 3 v 4, ... in the current ranking.
//
// Who starts each game follows §3.1 of the classique regulation: the
// tournament software designates the starting player so that the number of
// times each player starts is balanced (see starts.go). "Balanced within one"
// means a player's starts stay within one of half his games (|starts −
// seconds| <= 2). Swiss ranks start balance below repeats and score groups,
// so in rare rounds a score group forces one player past that bound; the
// property tests check that this only happens when no pairing as good on
// repeats and score groups could avoid it.
//
// Everything is a pure function of the Request: the same input always gives
// the same Proposal (no map iteration order, no clock, no randomness).
package pairing
