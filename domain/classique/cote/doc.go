// Package cote rates classique games (the cote) and derives séries.
//
// The exact FISF rating formula is not in the documents this project
// implements from (the regulation only says the tournament software computes
// cotes "selon les règlements FISF en vigueur", §2.2). The rule is therefore a
// named, versioned Policy: the projection stores which policy and version
// produced each cote, and the federation's own rule can replace the default
// (Elo, see elo.go) without touching the projection.
//
// Séries (Joker, A, B, C) are recomputed on demand from cotes and thresholds
// (see serie.go); they are never stored.
package cote
