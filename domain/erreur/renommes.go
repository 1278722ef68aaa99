package erreur

// codesRenommes are the codes renamed in English (issue 33: a code is
// machinery, in English; the federation's words stay in messages), each
// under its old name. For one release the API still sends the old name in
// extensions.ancienCode beside the new code, and the federation link reads
// an older principal's old names as the new ones.
var codesRenommes = map[Code]Code{
	"CENTRE_DEJA_RECU":    "CENTRE_ALREADY_RECEIVED",
	"JOURNAL_ALTERE":      "LOG_TAMPERED",
	"JUMELAGE_INVALIDE":   "INVALID_TWINNING",
	"LIAISON_COUPEE":      "LINK_DOWN",
	"PAQUET_CORROMPU":     "CORRUPT_BUNDLE",
	"RESULTATS_INVALIDES": "INVALID_RESULTS",
	"LEXIQUE_ABSENT":      "LEXICON_NOT_LOADED",
	"REJET_REFUSED":       "REJECTION_REFUSED",
	"INVALID_TIRAGE":      "INVALID_DRAW",
	"ANNULATION_REFUSED":  "CANCELLATION_REFUSED",
	"INVALID_PARTIE":      "INVALID_GAME",
	"INVALID_TOURNOI":     "INVALID_TOURNAMENT",
	"INVALID_DEPARTAGE":   "INVALID_TIEBREAK",
	"DOSSIER_INCOMPLETE":  "APPEAL_FILE_INCOMPLETE",
	"TOURNOI_ID_TAKEN":    "TOURNAMENT_ID_TAKEN",
	"NOT_IN_TIRAGE":       "NOT_IN_DRAW",
}

// anciensNoms are the old names of the renamed codes that had a code of
// their own (INVALID_DRAW was classique's before duplicate's INVALID_TIRAGE
// joined it: it has no old name to send).
var anciensNoms = func() map[Code]Code {
	m := make(map[Code]Code, len(codesRenommes))
	for ancien, nouveau := range codesRenommes {
		if nouveau != "INVALID_DRAW" {
			m[nouveau] = ancien
		}
	}
	return m
}()

// Actuel is code under its current name: an old name read from an older
// server is its new code, any other code itself.
func Actuel(code Code) Code {
	if nouveau, ok := codesRenommes[code]; ok {
		return nouveau
	}
	return code
}

// AncienNom is the name code had before it was renamed, for the API's
// extensions.ancienCode during one release.
func AncienNom(code Code) (Code, bool) {
	ancien, ok := anciensNoms[code]
	return ancien, ok
}

// AnciensNoms lists every old name (documentation and tests).
func AnciensNoms() []Code {
	noms := make([]Code, 0, len(codesRenommes))
	for ancien := range codesRenommes {
		noms = append(noms, ancien)
	}
	return noms
}
