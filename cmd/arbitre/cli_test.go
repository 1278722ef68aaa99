package main

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arbitre/domain/archive"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commandes is every command of the binary, the root and help included.
func commandes(c *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{c}
	for _, sub := range c.Commands() {
		out = append(out, commandes(sub)...)
	}
	return out
}

// englishMarkers are fragments of cobra's and pflag's English, or of
// English prose, that must not reach a French help.
var englishMarkers = []string{"Usage:", "Flags:", "Examples:", "Available Commands", "Global Flags", "help for",
	"[flags]", "[command]", "(default", " string ", " int ", " duration ", " the ", " of the ", " and ", " with ", " every "}

// TestCLI_AideEnFrancaisAvecExemple: every command's --help is French and
// shows an example.
func TestCLI_AideEnFrancaisAvecExemple(t *testing.T) {
	rootCmd.InitDefaultHelpCmd()
	for _, c := range commandes(rootCmd) {
		t.Run(c.CommandPath(), func(t *testing.T) {
			assert.NotEmpty(t, c.Example, "no Example")
			args := append(strings.Fields(c.CommandPath())[1:], "--help")
			out, err := runArbitre(t, args...)
			require.NoError(t, err)
			assert.Contains(t, out, "Exemples :")
			for _, m := range englishMarkers {
				assert.NotContains(t, out, m)
			}
		})
	}
}

// TestCLI_ErreursEnFrancais: flag-parsing, argument and domain errors are
// French like the rest of the output, and name what to do.
func TestCLI_ErreursEnFrancais(t *testing.T) {
	data := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"engine", "solve", "--lexique", "x"}, "option inconnue --lexique ; « arbitre engine solve --help » liste les options"},
		{"unknown shorthand", []string{"lexicon", "compile", "-z"}, "option inconnue -z ; « arbitre lexicon compile --help » liste les options"},
		{"missing value", []string{"replay", "--coup"}, "l'option --coup attend une valeur"},
		{"bad integer", []string{"replay", "--coup", "trois"}, `valeur "trois" invalide pour --coup : attendu un nombre entier`},
		{"bad duration", []string{"token", "create", "--ttl", "3 jours"}, `valeur "3 jours" invalide pour --ttl : attendu une durée comme 30s, 15m ou 72h`},
		{"unknown command", []string{"rejouer"}, `commande inconnue "rejouer" ; « arbitre --help » liste les commandes`},
		{"unknown help topic", []string{"help", "rejouer"}, `aucune commande "rejouer"`},
		{"extra argument", []string{"engine", "solve", "positions.jsonl"}, `arbitre engine solve ne prend pas d'argument (reçu ["positions.jsonl"])`},
		{"missing argument", []string{"lexicon", "compile", "-o", "x"}, "arbitre lexicon compile attend 1 argument(s), reçu 0"},
		{"required flag", []string{"token", "create", "--data", data}, "option obligatoire manquante : --role"},
		{"store flag", []string{"store", "verify", "--store", "postgres", "--data", data}, `--store vaut sqlite ou esdb, pas "postgres"`},
		{"unknown formula", []string{"engine", "solve", "--variant", "8sur9"}, `formule "8sur9" inconnue : normal, 7sur8, 7et8 ou 789`},
		{"top-only with all", []string{"engine", "solve", "--top-only", "--all"}, "--top-only et --all s'excluent"},
		{"no worker", []string{"engine", "solve", "--workers", "0"}, "--workers vaut au moins 1 (reçu 0)"},
		{"unreadable lexicon", []string{"engine", "solve", "--lexicon", data + "/absent.gaddag"}, "lexique " + data + "/absent.gaddag illisible"},
		{"domain refusal", []string{"token", "create", "--role", "juge", "--data", data, "--init"}, `rôle "juge" inconnu : directeur (director), arbitre (arbiter), commission ou centre`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runArbitre(t, tt.args...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// TestReplay_PartieEtCoupEnArgumentsOuOptions: replay takes the game and
// the coup as arguments or flags, refuses extra, missing or contradictory
// ones in French, and says which lexicon judged.
func TestReplay_PartieEtCoupEnArgumentsOuOptions(t *testing.T) {
	data := t.TempDir()
	_, err := runArbitre(t, "simulate", "duplicate", "--players", "2", "--games", "1", "--seed", "5", "--data", data)
	require.NoError(t, err)
	ok := []struct {
		name string
		args []string
	}{
		{"arguments", []string{"replay", "sim-5-1", "2"}},
		{"flags", []string{"replay", "--partie", "sim-5-1", "--coup", "2"}},
		{"former flag name", []string{"replay", "--game", "sim-5-1", "--coup", "2"}},
		{"argument and flag", []string{"replay", "sim-5-1", "--coup", "2"}},
		{"both, agreeing", []string{"replay", "sim-5-1", "2", "--partie", "sim-5-1", "--coup", "2"}},
	}
	for _, tt := range ok {
		t.Run(tt.name, func(t *testing.T) {
			out, err := runArbitre(t, append(tt.args, "--data", data)...)
			require.NoError(t, err)
			assert.Contains(t, out, "lexique : ")
			assert.Contains(t, out, "partie sim-5-1, coup 2\n")
		})
	}
	refus := []struct {
		name string
		args []string
		want string
	}{
		{"nothing", []string{"replay"}, "la partie manque ; usage : arbitre replay ID N, ou arbitre replay --partie ID --coup N"},
		{"no coup", []string{"replay", "sim-5-1"}, "le coup manque"},
		{"extra argument", []string{"replay", "sim-5-1", "2", "3"}, "trop d'arguments (3)"},
		{"coup not a number", []string{"replay", "sim-5-1", "deux"}, `coup "deux" : un nombre entier est attendu`},
		{"coup zero", []string{"replay", "sim-5-1", "0"}, "coup 0 : les coups se comptent à partir de 1"},
		{"two games", []string{"replay", "sim-5-1", "2", "--partie", "sim-5-2"}, `deux parties données : "sim-5-1" en argument et "sim-5-2" en option`},
		{"two coups", []string{"replay", "sim-5-1", "2", "--coup", "3"}, "deux coups donnés : 2 en argument et 3 en option"},
		{"malformed id", []string{"replay", "sim 5", "2"}, `partie "sim 5" : identifiant invalide`},
		{"unknown game", []string{"replay", "sim-9-9", "2"}, "partie sim-9-9 introuvable"},
	}
	for _, tt := range refus {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runArbitre(t, append(tt.args, "--data", data)...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// Issue 26 items 3 and 6: `token create --data TYPO` created an empty folder
// and printed a token the server then called « jeton inconnu ». A folder
// without a store is refused (nothing created) unless --init is given; the
// role is read in French as in English.
func TestToken_DossierSansMagasinRefuseSaufInit(t *testing.T) {
	parent := t.TempDir()
	typo := filepath.Join(parent, "dnnees")
	_, err := runArbitre(t, "token", "create", "--role", "directeur", "--data", typo)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `le dossier "`+typo+`" ne contient pas de magasin d'événements`)
	assert.Contains(t, err.Error(), "--init")
	assert.NoDirExists(t, typo, "a refused command creates nothing")

	for _, verb := range [][]string{{"store", "verify"}, {"projections", "rebuild"}, {"archive", "export", "--tournoi", "T", "--format", "csv"}} {
		_, err := runArbitre(t, append(verb, "--data", typo)...)
		require.Error(t, err, verb)
		assert.Contains(t, err.Error(), "ne contient pas de magasin", verb)
		assert.NoDirExists(t, typo, verb)
	}

	roles := []struct{ flag, stored string }{
		{"directeur", "director"}, {"director", "director"}, {"arbitre", "arbiter"}, {"arbiter", "arbiter"},
		{"commission", "commission"}, {"centre", "centre"},
	}
	for i, r := range roles {
		args := []string{"token", "create", "--role", r.flag, "--data", typo}
		if r.flag == "centre" {
			args = append(args, "--tournoi", "simultane", "--centre", "Brest")
		}
		if i == 0 {
			args = append(args, "--init")
		}
		out, err := runArbitre(t, args...)
		require.NoError(t, err, r.flag)
		assert.Contains(t, out, "rôle "+r.stored+",", r.flag)
	}
	help, err := runArbitre(t, "token", "create", "--help")
	require.NoError(t, err)
	assert.Contains(t, help, "directeur (ou director), arbitre (ou arbiter), commission ou centre")
}

// Issue 26 item 4: `projections rebuild` ran while `serve` held the data
// directory, though its help says « À lancer serveur arrêté ». It is
// refused, naming the server's pid and address, and the server is refused
// while a rebuild runs.
func TestProjectionsRebuild_RefuseeServeurEnMarche(t *testing.T) {
	data := t.TempDir()
	_, err := runArbitre(t, "simulate", "duplicate", "--players", "2", "--games", "1", "--seed", "3", "--data", data)
	require.NoError(t, err)
	lock, err := lockDataDir(data, "127.0.0.1:8123")
	require.NoError(t, err)
	_, err = runArbitre(t, "projections", "rebuild", "--data", data)
	require.Error(t, err)
	assert.Equal(t, fmt.Sprintf("projections rebuild : le répertoire de données %s est déjà utilisé par un autre « arbitre serve » "+
		"(pid %d, adresse 127.0.0.1:8123) : arrêtez-le ou choisissez un autre --data", data, os.Getpid()), err.Error())
	lock.release()

	_, err = runArbitre(t, "projections", "rebuild", "--data", data)
	require.NoError(t, err, "the server stopped, the rebuild runs")
	rebuild, err := lockDataDirFor(data, lockHolder{Commande: "projections rebuild"})
	require.NoError(t, err)
	defer rebuild.release()
	_, err = lockDataDir(data, "127.0.0.1:8124")
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("déjà utilisé par « arbitre projections rebuild » (pid %d)", os.Getpid()))
}

// Issue 26 item 5: the messages a person reads were English or raw: the
// port already in use, a file that does not exist, the end of a game as a
// code (reliquat_consonnes), numbers with a decimal point (92.30). They are
// French, with French number formats; codes stay in the data.
func TestCLI_MessagesEnFrancais(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	_, err = net.Listen("tcp", ln.Addr().String())
	require.Error(t, err)
	assert.Equal(t, "serve : impossible d'écouter sur "+ln.Addr().String()+" : l'adresse est déjà utilisée par un autre programme (un autre serveur ?) : choisissez un autre --listen",
		enFrancais(fmt.Errorf("serve : %w", err)).Error())

	data := t.TempDir()
	_, err = runArbitre(t, "simulate", "duplicate", "--players", "3", "--games", "1", "--seed", "2", "--data", data)
	require.NoError(t, err)
	absent := filepath.Join(data, "absent.csv")
	_, err = runArbitre(t, "archive", "import", absent, "--data", data)
	require.Error(t, err)
	assert.Equal(t, `archive import : le fichier "`+absent+`" n'existe pas`, enFrancais(err).Error())
	assert.Equal(t, "autre", enFrancais(errors.New("autre")).Error(), "any other error is unchanged")

	out, err := runArbitre(t, "simulate", "duplicate", "--players", "3", "--games", "1", "--seed", "2", "--data", t.TempDir())
	require.NoError(t, err)
	assert.Regexp(t, `fin : [a-zé' ]+, \d+ événements\n`, out)
	assert.Regexp(t, `\n +1 +\d{6} +\d+ +\d+ +-?\d+ +\d+,\d\d +\d+ +\d+\n`, out, "the percentage with a decimal comma")
	assert.Regexp(t, `durée \d+,\d{3} s\n$`, out)
	assert.NotRegexp(t, `\d\.\d`, out, "no decimal point")

	out, err = runArbitre(t, "simulate", "classique", "--players", "4", "--rounds", "1", "--seed", "2", "--data", t.TempDir())
	require.NoError(t, err)
	assert.Contains(t, out, "fins : 2 lettres épuisées\n")
	assert.NotContains(t, out, "map[")
}

// Issue 28 (what was left of issue 27): `archive import FILE` read the file
// whole with os.ReadFile — a huge file or /dev/zero was held in memory (or
// read for ever) before anything checked it. The file is read up to
// archive.MaxOctets and refused beyond, in French, nothing imported.
func TestSecurite_ImportDArchiveBorne(t *testing.T) {
	data := t.TempDir()
	_, err := runArbitre(t, "simulate", "duplicate", "--players", "3", "--games", "1", "--seed", "2", "--data", data)
	require.NoError(t, err)
	enorme := filepath.Join(t.TempDir(), "enorme.csv")
	require.NoError(t, os.WriteFile(enorme, []byte("tournoi,nom\n"), 0o600))
	require.NoError(t, os.Truncate(enorme, archive.MaxOctets+1), "a sparse file: no disk used")
	fichiers := []string{enorme}
	if _, err := os.Stat("/dev/zero"); err == nil {
		fichiers = append(fichiers, "/dev/zero")
	}
	for _, fichier := range fichiers {
		t.Run(filepath.Base(fichier), func(t *testing.T) {
			_, err := runArbitre(t, "archive", "import", fichier, "--data", data)
			require.Error(t, err)
			assert.Contains(t, enFrancais(err).Error(), "le fichier dépasse 32 Mio")
		})
	}
}
