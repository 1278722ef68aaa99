package graphql

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/vektah/gqlparser/v2/ast"

	"arbitre/graphql/generated"
)

// texteLibre lists every String field, input field and argument of the API
// that is genuinely free text (names, identifiers as typed, references,
// letters, words, rationales). A String whose values come from a closed set
// must be an enum instead: adding a String to the schema fails
// TestSchema_ChaineAEnsembleFerme until it is listed here, with its reason.
var texteLibre = map[string]string{
	"Acte.acteur": "who acted, as recorded",
	"Acte.role":   "as recorded in the event's metadata: a token's role in lower case, or another actor's (the simulation records directeur)",
	"Acte.type":   "event type of the catalogue: grows with every new event",
	"Acte.qui":    "a person's name, as his token's label gives it",
	"Mutation.chargerFeuillePretiree.feuille":  "a pre-drawn sheet, read by duplicate.LireFeuille",
	"AmendementClassique.motif":                "director's words",
	"ArbitreTablesInput.arbitre":               "arbiter's name, as the hall calls him",
	"Bulletin.corrigePar":                      "arbiter's identity",
	"Bulletin.ecrit":                           "JSON as typed",
	"Partie.lexique":                           "a word list's label, as its file gives it",
	"BulletinEnAttente.nom":                    "player's name, as registered",
	"Mutation.retirerJoueur.motif":             "director's words",
	"Bulletin.motif":                           "arbiter's words",
	"BulletinRejoue.differences":               "sentences for people",
	"BulletinRejoue.ecrit":                     "JSON as typed",
	"CoteClassique.politique":                  "rating rule's name and version, open",
	"CoteClassique.versionPolitique":           "version string",
	"CotePoint.politique":                      "rating rule's name and version, open",
	"ExportArchive.contenu":                    "a whole file's text",
	"ExportArchive.nomFichier":                 "built from the tournament's id",
	"ExportArchive.typeMime":                   "media type, open",
	"ImportArchive.empreinte":                  "SHA-256 in hexadecimal",
	"Mutation.importerArchive.contenu":         "a whole file's text",
	"Mutation.importerArchive.fichier":         "a file's name, as the client had it",
	"CoupClassique.chevalet":                   "letters",
	"CoupClassique.lettres":                    "letters",
	"CoupClassique.mot":                        "word",
	"CoupClassique.reference":                  "board reference",
	"CoupContestable.mots":                     "words",
	"Decision.moteur":                          "engine version",
	"Decision.place":                           "board reference",
	"DecisionInput.place":                      "board reference",
	"DecisionRejouee.texte":                    "sentence for people",
	"DemandeJeton.centre":                      "centre's name, as the director types it",
	"DemandeJeton.libelle":                     "director's label",
	"DemandeJeton.tables":                      "range of tables as typed, e.g. 1-40",
	"DemandeJeton.tournoi":                     "identifier",
	"DepotAppelInput.motif":                    "player's words",
	"DepotAppelInput.requerant":                "identity",
	"FinPartie.vainqueur":                      "player's licence",
	"Habilitation.tables":                      "range of tables",
	"Habilitation.tournoi":                     "identifier",
	"InscritClassique.nom":                     "name",
	"InscriptionClassiqueInput.nom":            "name",
	"RaisonTableClassique.texteDebut":          "sentence for people",
	"RaisonsAppariement.texteExempt":           "sentence for people",
	"ResultatClassique.correction":             "director's words",
	"Mutation.corrigerResultatClassique.motif": "director's words",
	"Jeton.centre":                             "centre's name, as the director typed it",
	"Jeton.empreinte":                          "hex SHA-256",
	"Jeton.libelle":                            "director's label",
	"Jeton.tables":                             "range of tables",
	"Jeton.tournoi":                            "identifier",
	"JetonEmis.secret":                         "secret",
	"JetonEmis.tables":                         "range of tables",
	"JetonEmis.tournoi":                        "identifier",
	"Joueur.club":                              "name",
	"Joueur.federation":                        "federation's name, open list",
	"Joueur.nom":                               "name",
	"Joueur.serie":                             "série label chosen by the director",
	"JoueurArchive.club":                       "name",
	"JoueurArchive.historique.after":           "opaque cursor",
	"JoueurArchive.nom":                        "name",
	"BilanAnnuel.nom":                          "name",
	"BilanAnnuel.club":                         "club name",
	"BilanAnnuelEdge.cursor":                   "opaque cursor",
	"Query.classementAnnuel.after":             "opaque cursor",
	"Query.resultatsClub.club":                 "club name, at most 100 characters",
	"Query.resultatsClub.after":                "opaque cursor",
	"JoueurInput.club":                         "name",
	"JoueurInput.federation":                   "federation's name, open list",
	"JoueurInput.nom":                          "name",
	"JoueurInput.serie":                        "série label chosen by the director",
	"Lexique.label":                            "description of the word list",
	"Replay.lexique":                           "the game's word list: its label, word count and checksum",
	"LigneClassement.club":                     "name",
	"LigneClassement.nom":                      "name",
	"LigneClassement.serie":                    "série label chosen by the director",
	"LigneClassique.nom":                       "name",
	"MatchClassique.chevalets":                 "letters",
	"MatchClassique.grille":                    "rows of the board",
	"MatchClassique.lexique":                   "word list's label",
	"MotForme.mot":                             "word",
	"MotForme.reference":                       "board reference",
	"Mutation.*.clientMutationId":              "client's idempotence key",
	"Mutation.amenderRonde.motif":              "director's words",
	"Mutation.fixerNombreParties.motif":        "director's words",
	"Mutation.composerCommission.membres":      "identities",
	"Mutation.composerCommission.president":    "identity",
	"Mutation.contester.mots":                  "words",
	"Mutation.contreArbitrer.motif":            "arbiter's words",
	"Mutation.corrigerBulletin.motif":          "arbiter's words",
	"Mutation.creerTournoi.nom":                "name",
	"Mutation.deciderAppel.motivation":         "commission's rationale",
	"Mutation.echanger.rejetees":               "letters",
	"Mutation.echanger.tirees":                 "letters",
	"Mutation.inscrireClassique.nom":           "name",
	"Mutation.ouvrirTournoiClassique.nom":      "name",
	"Mutation.placerMot.mot":                   "word",
	"Mutation.placerMot.reference":             "board reference",
	"Mutation.renvoyerCommission.motif":        "arbiter's words",
	"Mutation.retenirTop.mot":                  "word",
	"Mutation.retenirTop.reference":            "board reference",
	"Mutation.retirerJoueurClassique.motif":    "director's words",
	"Mutation.revoquerJeton.tournoi":           "identifier",
	"Mutation.sanctionDisciplinaire.motif":     "director's grounds",
	"Mutation.annulerEliminations.motif":       "director's grounds",
	"Mutation.tirer.lettres":                   "letters",
	"Mutation.tirerLettres.lettres":            "letters",
	"Mutation.voter.membre":                    "identity",
	"NiveauAppel.membres":                      "identities",
	"NiveauAppel.motif":                        "requester's words",
	"NiveauAppel.motivation":                   "commission's rationale",
	"NiveauAppel.president":                    "identity",
	"NiveauAppel.requerant":                    "identity",
	"PageInfo.endCursor":                       "opaque cursor",
	"ParticipationEdge.cursor":                 "opaque cursor",
	"Partie.grille":                            "rows of the board",
	"Partie.tirage":                            "letters",
	"Partie.reliquat":                          "letters",
	"Partie.nouvelles":                         "letters",
	"PartieArchiveEdge.cursor":                 "opaque cursor",
	"Placement.mot":                            "word",
	"Placement.reference":                      "board reference",
	"PositionInput.grille":                     "rows of the board",
	"PositionInput.tirage":                     "letters",
	"Query.classement.serie":                   "série label chosen by the director",
	"Query.classementDirecteur.serie":          "série label chosen by the director",
	"Query.gcg":                                "GCG file",
	"Query.jetons.tournoi":                     "identifier",
	"Query.tournois.after":                     "opaque cursor",
	"Query.verifierCoup.mot":                   "word",
	"Query.verifierCoup.reference":             "board reference",
	"RaccordInput.letter":                      "letter",
	"Replay.grille":                            "rows of the board",
	"Replay.rejets":                            "letters",
	"Replay.reliquat":                          "letters",
	"Replay.sac":                               "letters",
	"Replay.tirage":                            "letters",
	"RejetTirage.reliquat":                     "letters",
	"RejetTirage.nouvelles":                    "letters",
	"Serveur.version":                          "version string",
	"SolutionEcriteInput.ref":                  "reference as written, may be garbled",
	"SolutionEcriteInput.word":                 "word as written",
	"SolutionTop.mot":                          "word",
	"SolutionTop.reference":                    "board reference",
	"Subscription.classementChange.serie":      "série label chosen by the director",
	"Subscription.standingsChanged.serie":      "série label chosen by the director",
	"TopRetenu.cases":                          "board squares",
	"TopRetenu.mot":                            "word",
	"TopRetenu.reference":                      "board reference",
	"Tournoi.nom":                              "name",
	"TournoiArchive.nom":                       "name",
	"TournoiArchive.parties.after":             "opaque cursor",
	"TournoiArchiveEdge.cursor":                "opaque cursor",
	"TournoiClassique.nom":                     "name",
	"VoteAppel.membre":                         "identity",
	"ContreArbitrage.arbitre":                  "second arbiter's identity",
	"ContreArbitrage.motif":                    "second arbiter's words",
	"ConfigClassique.politique":                "tie-break policy's name, built from its criteria: open",
	"Mutation.envoyerResultatsCentre.paquet":   "a centre's bundle (zip), base64",
	"Mutation.envoyerResultatsJumeles.paquet":  "a twinned site's bundle (zip), base64",
	"FaitPartie.type":                          "an event type of the catalogue, as recorded (the link replays the ones it knows)",
	"FaitPartie.donnees":                       "an event's payload, JSON",
	"SuiviJumelage.principal":                  "the principal site's name, as the twinning was created",
	"SuiviJumelage.site":                       "the site's name, from its token",
	"ReceptionCentre.centre":                   "centre's name, from its token",
	"ReceptionCentre.empreinte":                "hex SHA-256 fingerprint",
	"CentreIsole.centre":                       "centre's name, as its results say",
	"ClassementNational.nom":                   "the event's name",
	"ClassementNational.centres":               "centres' names, as their results say",
	"EffectifSerie.serie":                      "série as registered",
	"LigneJumelee.site":                        "site's name, as its bundle says",
	"LigneJumelee.nom":                         "name",
	"LigneJumelee.serie":                       "série as registered",
	"LigneNationale.centre":                    "centre's name, as its results say",
	"LigneNationale.nom":                       "name",
	"LigneNationale.serie":                     "série as registered",
	"LigneNationale.club":                      "club's name",
	"OrigineCentre.centre":                     "centre's name, as its results say",
	"ProportionSerie.serie":                    "série as registered",
	"Query.classementJumele.paquets":           "the sites' bundles (zip), base64",
	"SiteIsole.site":                           "site's name, as its bundle says",
}

// valeursListees spots a description that lists a String's allowed values:
// quoted or backticked words joined by "or", or snake_case words followed by
// an "or" (attente_tirage, tirage, top ... or terminee).
var valeursListees = regexp.MustCompile("[`'\"][^`'\"\\s]+[`'\"],? or [`'\"]|\\b[a-z0-9]+_[a-z0-9_]+\\b[^.]*\\bor\\b")

// introspected is the executable schema as gqlgen serves it.
func introspected() *ast.Schema {
	return generated.NewExecutableSchema(generated.Config{}).Schema()
}

// ours lists the schema's own definitions: not GraphQL's or gqlgen's built-ins.
func ours(s *ast.Schema) []*ast.Definition {
	var defs []*ast.Definition
	for name, def := range s.Types {
		if def.BuiltIn || strings.HasPrefix(name, "__") {
			continue
		}
		defs = append(defs, def)
	}
	sort.Slice(defs, func(i, j int) bool { return defs[i].Name < defs[j].Name })
	return defs
}

func TestSchema_DescriptionManquante(t *testing.T) {
	s := introspected()
	var manquantes []string
	decrit := func(coord, desc string) {
		if strings.TrimSpace(desc) == "" {
			manquantes = append(manquantes, coord)
		}
	}
	for _, def := range ours(s) {
		decrit(def.Name, def.Description)
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			decrit(def.Name+"."+f.Name, f.Description)
			for _, a := range f.Arguments {
				decrit(def.Name+"."+f.Name+"("+a.Name+")", a.Description)
			}
		}
		for _, v := range def.EnumValues {
			decrit(def.Name+"."+v.Name, v.Description)
		}
	}
	for name, dir := range s.Directives {
		if dir.Position != nil && dir.Position.Src != nil && dir.Position.Src.BuiltIn {
			continue
		}
		decrit("@"+name, dir.Description)
		for _, a := range dir.Arguments {
			decrit("@"+name+"("+a.Name+")", a.Description)
		}
	}
	if len(manquantes) > 0 {
		t.Errorf("every type, field, argument and enum value of the API needs a description; missing:\n%s", strings.Join(manquantes, "\n"))
	}
}

func TestSchema_ChaineAEnsembleFerme(t *testing.T) {
	s := introspected()
	libre := func(coords ...string) bool {
		for _, c := range coords {
			if _, ok := texteLibre[c]; ok {
				return true
			}
		}
		return false
	}
	var fermees []string
	verifier := func(desc string, typ *ast.Type, coords ...string) {
		if typ.Name() != "String" {
			return
		}
		if !libre(coords...) {
			fermees = append(fermees, coords[0]+": a String not listed as free text (make it an enum, or list it in texteLibre)")
		} else if valeursListees.MatchString(desc) {
			fermees = append(fermees, coords[0]+": its description lists allowed values ("+desc+"): make it an enum")
		}
	}
	for _, def := range ours(s) {
		for _, f := range def.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			verifier(f.Description, f.Type, def.Name+"."+f.Name)
			for _, a := range f.Arguments {
				verifier(a.Description, a.Type, def.Name+"."+f.Name+"."+a.Name, def.Name+".*."+a.Name)
			}
		}
	}
	if len(fermees) > 0 {
		t.Errorf("a String whose values come from a closed set must be an enum:\n%s", strings.Join(fermees, "\n"))
	}
}

func TestSchema_TexteLibreExiste(t *testing.T) {
	s := introspected()
	for coord := range texteLibre {
		parts := strings.Split(coord, ".")
		def := s.Types[parts[0]]
		if !assert.NotNil(t, def, coord) || parts[1] == "*" {
			continue
		}
		f := def.Fields.ForName(parts[1])
		if !assert.NotNil(t, f, coord) {
			continue
		}
		if len(parts) == 3 {
			a := f.Arguments.ForName(parts[2])
			if assert.NotNil(t, a, coord) {
				assert.Equal(t, "String", a.Type.Name(), coord)
			}
			continue
		}
		assert.Equal(t, "String", f.Type.Name(), "%s is no longer a String: remove it from texteLibre", coord)
	}
}

// Issue 12 item 7: subscriptions are named in French like the other fields;
// each English name stays one release, deprecated, beside its successor.
func TestSchema_AbonnementsEnFrancais(t *testing.T) {
	sub := introspected().Subscription
	for ancien, francais := range map[string]string{
		"coupAnnounced":    "coupAnnonce",
		"standingsChanged": "classementChange",
		"rondeChanged":     "rondeChangee",
		"matchChanged":     "matchChange",
	} {
		nouveau := sub.Fields.ForName(francais)
		if assert.NotNil(t, nouveau, francais) {
			assert.Nil(t, nouveau.Directives.ForName("deprecated"), francais)
		}
		vieux := sub.Fields.ForName(ancien)
		if assert.NotNil(t, vieux, "%s is kept for one release", ancien) {
			d := vieux.Directives.ForName("deprecated")
			if assert.NotNil(t, d, ancien) {
				assert.Contains(t, d.Arguments.ForName("reason").Value.Raw, francais, ancien)
			}
		}
	}
	for _, f := range sub.Fields {
		if f.Directives.ForName("deprecated") == nil {
			assert.NotRegexp(t, `Changed$|Announced$`, f.Name, "a subscription named in English")
		}
	}
}

func TestSchema_ValeursListeesReperees(t *testing.T) {
	for _, tt := range []struct {
		desc    string
		listees bool
	}{
		{"depose, en_examen, decide or classe.", true},
		{"tirage_initial, en_cours, terminee (the sheet is being signed) or validee.", true},
		{"`h` or `v`: how the word is written.", true},
		{`"normal", "7sur8", "7et8" or "789".`, true},
		{"Who seized it: a licence or an arbiter's identity.", false},
		{"The requester's grounds.", false},
		{"OK, or why the placement is impossible (NOT_IN_RACK, NOT_CONNECTED, ...).", false},
	} {
		assert.Equal(t, tt.listees, valeursListees.MatchString(tt.desc), tt.desc)
	}
}
