package main

// Hostile inputs that cost far more than their size (issue 27): zip bombs in
// centres' bundles, a gzip bomb as a word list, oversized results and
// principal's answers. Each is sent to the real `arbitre serve` in a
// process of its own (or to the CLI in one), whose peak memory (VmHWM, or
// the child's maximum resident size) is read from the system, not guessed.

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbitre/domain/catalogue"
	"arbitre/domain/duplicate"
	"arbitre/domain/eventstore"
	"arbitre/domain/eventstore/streamname"
	"arbitre/domain/federation"
	"arbitre/domain/tournoi"
	"arbitre/projections/centres"
)

// memoireMaxAdmise is the peak memory a hostile request may cost the
// server, or the CLI (issue 27).
const memoireMaxAdmise = 600 << 20

// exigerLinux skips a test that reads a process's memory from /proc or
// from its rusage, Linux's.
func exigerLinux(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the peak memory of a process is read from /proc (Linux)")
	}
}

// memoireMax is the peak resident memory (VmHWM) of process pid, in bytes.
func memoireMax(t *testing.T, pid int) int64 {
	t.Helper()
	pic := statutProcessus(pid, "VmHWM:")
	require.NotZero(t, pic, "VmHWM of /proc/%d/status", pid)
	return pic
}

// statutProcessus reads one memory field (in kB) of /proc/<pid>/status, in
// bytes; 0 when the process or the field is gone.
func statutProcessus(pid int, champ string) int64 {
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for l := range strings.Lines(string(status)) {
		if valeur, ok := strings.CutPrefix(l, champ); ok {
			kio, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(valeur), " kB"), 10, 64)
			return kio << 10
		}
	}
	return 0
}

// sousAttaque sends the hostile request attaque to s while /healthz is
// asked every 50 ms, and logs what it cost: the request's wall time, the
// slowest /healthz answer and the server's peak memory, which must stay
// under memoireMaxAdmise. /healthz must answer throughout.
func sousAttaque(t *testing.T, s *apiServer, nom string, attaque func()) {
	t.Helper()
	client := &http.Client{Timeout: e2eAttente}
	fini := make(chan struct{})
	var lent time.Duration
	var echecs []string
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			debut := time.Now()
			resp, err := client.Get(s.url + "/healthz")
			if err != nil {
				echecs = append(echecs, err.Error())
			} else {
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					echecs = append(echecs, resp.Status)
				}
			}
			lent = max(lent, time.Since(debut))
			select {
			case <-fini:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	debut := time.Now()
	attaque()
	duree := time.Since(debut)
	close(fini)
	wg.Wait()
	pic := memoireMax(t, s.pid)
	t.Logf("%s : requête %v, /healthz le plus lent %v, VmHWM du serveur %d Mo", nom, duree.Round(time.Millisecond), lent.Round(time.Millisecond), pic>>20)
	assert.Empty(t, echecs, "%s: /healthz answers while the attack runs", nom)
	assert.Less(t, pic, int64(memoireMaxAdmise), "%s: the server's peak memory", nom)
}

// zeros reads zero bytes forever.
type zeros struct{}

func (zeros) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

// paquetHostile writes a bundle of m whose evenements.jsonl is taille
// bytes: zeros (which deflate a thousandfold) when contenu is nil.
func paquetHostile(t *testing.T, m centres.Manifeste, taille int64, contenu []byte) []byte {
	t.Helper()
	m.Format = centres.Format
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	manifeste, err := json.Marshal(m)
	require.NoError(t, err)
	w, err := z.Create(centres.FichierManifeste)
	require.NoError(t, err)
	_, err = w.Write(manifeste)
	require.NoError(t, err)
	w, err = z.Create(centres.FichierEvenements)
	require.NoError(t, err)
	if contenu != nil {
		_, err = w.Write(contenu)
	} else {
		_, err = io.CopyN(w, zeros{}, taille)
	}
	require.NoError(t, err)
	require.NoError(t, z.Close())
	return b.Bytes()
}

// superposer repeats the central-directory record of evenements.jsonl so
// that copies entries share its one compressed stream, each inflated anew.
func superposer(t *testing.T, paquet []byte, copies int) []byte {
	t.Helper()
	fin := paquet[len(paquet)-22:] // the end of central directory, without a comment
	require.Equal(t, uint32(0x06054b50), binary.LittleEndian.Uint32(fin))
	taille, debut := binary.LittleEndian.Uint32(fin[12:]), binary.LittleEndian.Uint32(fin[16:])
	annuaire := paquet[debut : debut+taille]
	var evenements []byte
	for r := annuaire; len(r) > 0; {
		n := 46 + int(binary.LittleEndian.Uint16(r[28:])) + int(binary.LittleEndian.Uint16(r[30:])) + int(binary.LittleEndian.Uint16(r[32:]))
		if string(r[46:46+binary.LittleEndian.Uint16(r[28:])]) == centres.FichierEvenements {
			evenements = r[:n]
		}
		r = r[n:]
	}
	require.NotNil(t, evenements)
	out := append([]byte(nil), paquet[:debut+taille]...)
	for range copies - 1 {
		out = append(out, evenements...)
	}
	nouvelleFin := append([]byte(nil), fin...)
	entrees := binary.LittleEndian.Uint16(fin[10:]) + uint16(copies-1)
	binary.LittleEndian.PutUint16(nouvelleFin[8:], entrees)
	binary.LittleEndian.PutUint16(nouvelleFin[10:], entrees)
	binary.LittleEndian.PutUint32(nouvelleFin[12:], taille+uint32((copies-1)*len(evenements)))
	return append(out, nouvelleFin...)
}

// bombes are the zip bombs of issue 27, item 4, as a centre "S" of event
// or twinning epreuve would send them: one file of 256 MB of zeros (a
// quarter of a megabyte deflated), the same compressed stream named by 20
// overlapping entries, and 10 MiB of zeros, within the size bound but
// deflated a thousandfold.
func bombes(t *testing.T, epreuve string) map[string][]byte {
	t.Helper()
	m := centres.Manifeste{Epreuve: epreuve, Centre: "S", Partie: "P-1", Tournoi: "T", Evenements: 1, SHA256: strings.Repeat("0", 64)}
	une := paquetHostile(t, m, 256<<20, nil)
	return map[string][]byte{"256 Mo de zéros": une, "20 entrées superposées": superposer(t, une, 20),
		"10 Mio de zéros": paquetHostile(t, m, 10<<20, nil)}
}

// TestSecurite_BombeZipPaquets: zip bombs sent to the anonymous
// classementJumele(paquets:) and, with a centre's token, to
// envoyerResultatsCentre are refused from their zip headers
// (CORRUPT_BUNDLE) at a small cost; the twinning and the token's event
// are checked before a bundle's events are read, so a damaged bundle for
// an unknown twinning is NOT_FOUND, for a centre outside the twinning
// INVALID_RESULTS, for another event FORBIDDEN (issue 27, item 4).
func TestSecurite_BombeZipPaquets(t *testing.T) {
	exigerLinux(t)
	data := t.TempDir()
	runCLI := func(args ...string) {
		out, err := runArbitre(t, args...)
		require.NoError(t, err, out)
	}
	runCLI("centre", "ouvrir", "--data", data, "--init", "--epreuve", "E", "--coups", "3")
	runCLI("jumelage", "creer", "--data", data, "--init", "--jumelage", "J", "--formule", "2", "--principal", "P", "--site", "S")
	centre := apiToken(t, data, "--role", "centre", "--tournoi", "E", "--centre", "S")
	s := serveProcessus(t, data, "--rate", "0")

	classer := func(jumelage string, paquet []byte) func() string {
		return func() string {
			return s.gql("", `query($j: ID!, $p: [String!]!) { classementJumele(jumelage:$j, paquets:$p) { formule } }`,
				map[string]any{"j": jumelage, "p": []string{base64.StdEncoding.EncodeToString(paquet)}}).code()
		}
	}
	envoyer := func(paquet []byte) func() string {
		return func() string {
			return s.gql(centre, `mutation($p: String!) { envoyerResultatsCentre(paquet:$p) { empreinte } }`,
				map[string]any{"p": base64.StdEncoding.EncodeToString(paquet)}).code()
		}
	}
	abime := func(epreuve, centre string) []byte {
		return paquetHostile(t, centres.Manifeste{Epreuve: epreuve, Centre: centre, Partie: "P-1", Tournoi: "T", Evenements: 1,
			SHA256: strings.Repeat("0", 64)}, 0, []byte("{}\n"))
	}
	cas := []struct {
		nom, code string
		requete   func() string
	}{
		{"classementJumele, jumelage inconnu, paquet abîmé", "NOT_FOUND", classer("INCONNU", abime("J", "S"))},
		{"classementJumele, centre hors du jumelage, paquet abîmé", "INVALID_RESULTS", classer("J", abime("J", "X"))},
		{"envoyerResultatsCentre, paquet d'une autre épreuve, abîmé", "FORBIDDEN", envoyer(abime("AUTRE", "S"))},
		// The costliest bundle within the bounds: 10,000 players, 15 MB of
		// events to read, ranked (the principal's: a site's is checked
		// against it).
		{"classementJumele, paquet valide de 15 Mo", "", classer("J", paquetDeJoueurs(t, "P", 10_000, 1300, ""))},
	}
	for nom, bombe := range bombes(t, "J") {
		cas = append(cas, struct {
			nom, code string
			requete   func() string
		}{"classementJumele, " + nom, "CORRUPT_BUNDLE", classer("J", bombe)})
	}
	for nom, bombe := range bombes(t, "E") {
		cas = append(cas, struct {
			nom, code string
			requete   func() string
		}{"envoyerResultatsCentre, " + nom, "CORRUPT_BUNDLE", envoyer(bombe)})
	}
	for _, c := range cas {
		sousAttaque(t, s, c.nom, func() { assert.Equal(t, c.code, c.requete(), c.nom) })
	}
}

// arbitreEnProcessus runs `arbitre args...` in a process of its own, as
// serveProcessus does, and returns its output, its error and its peak
// resident memory in bytes.
func arbitreEnProcessus(t *testing.T, args ...string) (string, error, int64) {
	t.Helper()
	ligne, err := json.Marshal(args)
	require.NoError(t, err)
	// A command that does not stop (a server that started after all) is
	// killed: its error is then that.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fichierPic := filepath.Join(t.TempDir(), "pic")
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestProcessusEnfant$")
	cmd.Env = append(os.Environ(), envProcessus+"="+string(ligne), envPicMemoire+"="+fichierPic)
	var sortie bytes.Buffer
	cmd.Stdout, cmd.Stderr = &sortie, &sortie
	_, err = cmd.StdinPipe() // open until it exits (TestProcessusEnfant)
	require.NoError(t, err)
	err = cmd.Run()
	// Not the rusage's Maxrss: Go starts a child by vfork, and Linux counts
	// the parent's peak (the test binary's, 683 MB once the suite grew) in
	// the child's at its exec.
	pic, errPic := os.ReadFile(fichierPic)
	require.NoError(t, errPic, "the child wrote its peak memory: %s", sortie.String())
	octets, errPic := strconv.ParseInt(string(pic), 10, 64)
	require.NoError(t, errPic)
	require.Positive(t, octets)
	return sortie.String(), err, octets
}

// TestSecurite_BombeZipCLI: the same zip bombs given to `arbitre centre
// import` and `arbitre jumelage classement` are refused (CORRUPT_BUNDLE's
// message) from their zip headers, the command's peak memory under
// memoireMaxAdmise; a file larger than any bundle is refused without being
// read whole (issue 27, item 4).
func TestSecurite_BombeZipCLI(t *testing.T) {
	exigerLinux(t)
	data := t.TempDir()
	out, err := runArbitre(t, "jumelage", "creer", "--data", data, "--init", "--jumelage", "J", "--formule", "2", "--principal", "P", "--site", "S")
	require.NoError(t, err, out)
	dir := t.TempDir()
	ecrire := func(nom string, contenu []byte) string {
		f := filepath.Join(dir, nom)
		require.NoError(t, os.WriteFile(f, contenu, 0o600))
		return f
	}
	enorme := filepath.Join(dir, "enorme.zip")
	f, err := os.Create(enorme)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(1<<30)) // sparse: a gigabyte of zeros read, none written
	require.NoError(t, f.Close())
	fichiers := map[string]string{"un fichier de 1 Go": enorme}
	for nom, bombe := range bombes(t, "J") {
		fichiers[nom] = ecrire(strings.ReplaceAll(nom, " ", "-")+".zip", bombe)
	}
	for nom, fichier := range fichiers {
		for _, commande := range [][]string{
			{"centre", "import", "--data", data, fichier},
			{"jumelage", "classement", "--data", data, "--jumelage", "J", fichier},
		} {
			debut := time.Now()
			out, err, pic := arbitreEnProcessus(t, commande...)
			t.Logf("arbitre %s %s (%s) : %v, pic de mémoire %d Mo", commande[0], commande[1], nom, time.Since(debut).Round(time.Millisecond), pic>>20)
			require.Error(t, err, out)
			assert.Contains(t, out, "paquet du centre", "%s %s: %s", commande[1], nom, out)
			assert.Contains(t, out, "au plus", "%s %s: the bound is named", commande[1], nom)
			assert.Less(t, pic, int64(memoireMaxAdmise), "%s %s: the command's peak memory", commande[1], nom)
		}
	}
}

// listeGzip writes to dir/nom a word list, gzip-compressed at the best
// level, of n copies of motif.
func listeGzip(t *testing.T, dir, nom, motif string, n int) string {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, nom))
	require.NoError(t, err)
	z, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	require.NoError(t, err)
	ligne := []byte(strings.Repeat(motif, 1<<16/len(motif)))
	for ecrit := 0; ecrit < n*len(motif); ecrit += len(ligne) {
		_, err = z.Write(ligne[:min(len(ligne), n*len(motif)-ecrit)])
		require.NoError(t, err)
	}
	require.NoError(t, z.Close())
	require.NoError(t, f.Close())
	return f.Name()
}

// TestSecurite_BombeGzipListeDeMots: word lists that are gzip bombs (900
// MB of blank lines in less than 1 MB, one word repeated 64 MB long, a
// word too long to play repeated 256 MB long, a line of 100 MB without
// end) and a list of blank lines only (which made serve panic) given to `arbitre lexicon compile` and to
// `--lexicon` are refused with a French message naming the bound, the
// command's peak memory under memoireMaxAdmise (issue 27, item 7).
func TestSecurite_BombeGzipListeDeMots(t *testing.T) {
	exigerLinux(t)
	dir := t.TempDir()
	listes := []struct{ nom, fichier, borne string }{
		{"900 Mo de lignes vides", listeGzip(t, dir, "vides.txt.gz", "\n", 900<<20), "plus de 2000000 lignes"},
		{"un mot répété sur 64 Mo", listeGzip(t, dir, "repete.txt.gz", "AA\n", 64<<20/3), "plus de 1000000 mots"},
		{"un mot de 511 lettres répété sur 256 Mo", listeGzip(t, dir, "long.txt.gz", strings.Repeat("A", 511)+"\n", 256<<20/512),
			"plus de 33554432 octets une fois décompressée"},
		{"une ligne de 100 Mo", listeGzip(t, dir, "ligne.txt.gz", "A", 100<<20), "ligne 1 : plus de 1024 octets"},
		{"des lignes vides seulement", listeGzip(t, dir, "vide.txt.gz", "\n", 1000), "sans aucun mot"},
	}
	for _, l := range listes {
		for _, commande := range [][]string{
			{"lexicon", "compile", l.fichier, "-o", filepath.Join(dir, "sortie.gaddag")},
			{"serve", "--data", t.TempDir(), "--listen", "127.0.0.1:0", "--lexicon", l.fichier},
		} {
			debut := time.Now()
			out, err, pic := arbitreEnProcessus(t, commande...)
			t.Logf("arbitre %s (%s) : %v, pic de mémoire %d Mo", commande[0], l.nom, time.Since(debut).Round(time.Millisecond), pic>>20)
			require.Error(t, err, out)
			assert.Contains(t, out, l.borne, "%s, %s", commande[0], l.nom)
			assert.Less(t, pic, int64(memoireMaxAdmise), "%s, %s: the command's peak memory", commande[0], l.nom)
		}
	}
	// A compiled lexicon's header, then a gigabyte (sparse): refused unread.
	compile := filepath.Join(dir, "enorme.gaddag")
	f, err := os.Create(compile)
	require.NoError(t, err)
	_, err = f.WriteString("ARBLEXGD")
	require.NoError(t, err)
	require.NoError(t, f.Truncate(1<<30))
	require.NoError(t, f.Close())
	out, err, pic := arbitreEnProcessus(t, "serve", "--data", t.TempDir(), "--listen", "127.0.0.1:0", "--lexicon", compile)
	t.Logf("arbitre serve (lexique compilé de 1 Go) : pic de mémoire %d Mo", pic>>20)
	require.Error(t, err, out)
	assert.Contains(t, out, "plus de 67174428 octets")
	assert.Less(t, pic, int64(memoireMaxAdmise), "serve, a compiled lexicon of 1 GB: the command's peak memory")
}

// principalHostile is a twinning's principal that answers a site's
// requests with sansFin (640 MB) where the site expects a few bytes: its
// GraphQL answer over HTTP (http), or a message of the live subscription
// (websocket) once suiviJumelage and faitsPartie answered as a game with no
// fact yet. It counts the site's attempts and the bytes it got out.
type principalHostile struct {
	websocket bool
	mu        sync.Mutex
	essais    int
	envoyes   int64
}

// sansFin is what the hostile principal sends: a JSON string that does not
// end before 640 MB.
const sansFin = 640 << 20

func (p *principalHostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if websocket.IsWebSocketUpgrade(r) {
		p.ecouter(w, r)
		return
	}
	var req struct{ Query string }
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case !p.websocket && strings.Contains(req.Query, "suiviJumelage"):
		p.compter()
		p.inonder(w, `{"data":{"suiviJumelage":{"jumelage":"`)
	case strings.Contains(req.Query, "suiviJumelage"):
		_, _ = io.WriteString(w, `{"data":{"suiviJumelage":{"jumelage":"J","formule":1,"principal":"P","site":"S","tournoi":"T","parties":["P-1"]}}}`)
	case strings.Contains(req.Query, "faitsPartie"):
		_, _ = io.WriteString(w, `{"data":{"faitsPartie":[]}}`)
	default:
		_, _ = io.WriteString(w, `{"data":null}`)
	}
}

func (p *principalHostile) compter() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.essais++
}

// inonder writes debut, then sansFin bytes, and counts what went out.
func (p *principalHostile) inonder(w io.Writer, debut string) {
	bloc := bytes.Repeat([]byte("A"), 1<<16)
	n, _ := io.WriteString(w, debut)
	for envoye := 0; envoye < sansFin; envoye += len(bloc) {
		m, err := w.Write(bloc)
		n += m
		if err != nil {
			break
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.envoyes += int64(n)
}

// ecouter answers graphql-transport-ws: the ack, then one message that
// does not end.
func (p *principalHostile) ecouter(w http.ResponseWriter, r *http.Request) {
	amont := websocket.Upgrader{Subprotocols: []string{"graphql-transport-ws"}}
	conn, err := amont.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	p.compter()
	var init map[string]any
	if conn.ReadJSON(&init) != nil || conn.WriteJSON(map[string]string{"type": "connection_ack"}) != nil || conn.ReadJSON(&init) != nil {
		return
	}
	msg, err := conn.NextWriter(websocket.TextMessage)
	if err != nil {
		return
	}
	p.inonder(msg, `{"id":"1","type":"next","payload":{"data":"`)
	_ = msg.Close()
}

// TestSecurite_ReponsesDuPrincipalBornees: a satellite (serve
// --satellite-de) whose principal answers a GraphQL request, or sends a
// message of the live subscription, of 640 MB reads a bounded part of it,
// drops the link and tries again, its peak memory under memoireMaxAdmise
// (issue 27, item 10).
func TestSecurite_ReponsesDuPrincipalBornees(t *testing.T) {
	exigerLinux(t)
	for _, c := range []struct {
		nom       string
		websocket bool
	}{{"réponse HTTP de 640 Mo", false}, {"message websocket de 640 Mo", true}} {
		t.Run(c.nom, func(t *testing.T) {
			principal := &principalHostile{websocket: c.websocket}
			fake := httptest.NewServer(principal)
			t.Cleanup(fake.Close)
			debut := time.Now()
			s := serveProcessus(t, t.TempDir(), "--satellite-de", fake.URL, "--jeton-centre", "secret", "--tournoi", "T")
			require.Eventually(t, func() bool {
				principal.mu.Lock()
				defer principal.mu.Unlock()
				return principal.essais >= 2
			}, 2*time.Minute, 50*time.Millisecond, "the site tries again after a hostile answer")
			principal.mu.Lock()
			envoyes := principal.envoyes
			principal.mu.Unlock()
			pic := memoireMax(t, s.pid)
			t.Logf("%s : deux essais en %v, %d Mo sortis du principal, VmHWM du site %d Mo", c.nom, time.Since(debut).Round(time.Millisecond), envoyes>>20, pic>>20)
			assert.Less(t, pic, int64(memoireMaxAdmise), "the site's peak memory")
		})
	}
}

// paquetDeJoueurs writes a bundle that passes every check, as centre
// (site S, or the principal P) of twinning J would give it for game P-1: n
// players whose names are longueurNom letters long (graine first, to tell
// bundles apart), a game without any coup yet.
func paquetDeJoueurs(t *testing.T, centre string, n, longueurNom int, graine string) []byte {
	t.Helper()
	registre, err := catalogue.Registre()
	require.NoError(t, err)
	md := eventstore.Metadata{Actor: "test"}
	var lignes bytes.Buffer
	position := uint64(0)
	ajouter := func(stream string, revision uint64, payload any) {
		d, err := registre.NewEventData(uuid.New(), payload, md)
		require.NoError(t, err)
		position++
		b, err := json.Marshal(eventstore.Event{ID: d.ID, Stream: stream, Revision: revision, Position: position, Type: d.Type,
			Version: d.Version, Data: d.Data, Metadata: d.Metadata})
		require.NoError(t, err)
		lignes.Write(append(b, '\n'))
	}
	fluxTournoi, err := streamname.TournoiStream("TS")
	require.NoError(t, err)
	fluxPartie, err := streamname.PartieStream("P-1")
	require.NoError(t, err)
	licences := make([]string, n)
	for i := range licences {
		licences[i] = fmt.Sprintf("L%05d", i)
		ajouter(fluxTournoi, uint64(i), tournoi.JoueurInscrit{Joueur: tournoi.Joueur{Licence: licences[i],
			Nom: graine + strings.Repeat("N", longueurNom), Club: "Club", Serie: "3A"}})
	}
	ajouter(fluxPartie, 0, duplicate.PartieCreee{Partie: "P-1", Tournoi: "TS", Joueurs: licences})
	somme := sha256.Sum256(lignes.Bytes())
	return paquetHostile(t, centres.Manifeste{Epreuve: "J", Centre: centre, Partie: "P-1", Tournoi: "TS", Evenements: int(position),
		SHA256: hex.EncodeToString(somme[:])}, 0, lignes.Bytes())
}

// TestSecurite_ResultatsDesSitesBornes: the results a twinned site sends
// are recorded as one event each: results of more than 256 KiB (2,000
// players with names of 1,000 letters, a 2 MB event from a bundle of a
// tenth of that) are refused (INVALID_RESULTS) and nothing is
// recorded; a site sending bundle after bundle is refused past its burst
// (RATE_LIMITED), what it sent before recorded (issue 27, item 9).
func TestSecurite_ResultatsDesSitesBornes(t *testing.T) {
	exigerLinux(t)
	data := t.TempDir()
	out, err := runArbitre(t, "jumelage", "creer", "--data", data, "--init", "--jumelage", "J", "--formule", "1", "--principal", "P", "--tournoi", "TP", "--site", "S")
	require.NoError(t, err, out)
	directeur := apiToken(t, data, "--role", "director")
	site := apiToken(t, data, "--role", "centre", "--tournoi", "J", "--centre", "S")
	s := serveProcessus(t, data, "--rate", "0")
	require.Empty(t, s.gql(directeur, `mutation { creerTournoi(id:"TP", nom:"Principal", homologue: false) { id } }`, nil).Errors)
	require.Empty(t, s.gql(directeur, `mutation { creerPartie(tournoi:"TP", partie:"P-1", config:{source: logiciel, graine: 3}) { id } }`, nil).Errors)
	envoyer := func(paquet []byte) string {
		return s.gql(site, `mutation($p: String!) { envoyerResultatsJumeles(paquet:$p) { empreinte } }`,
			map[string]any{"p": base64.StdEncoding.EncodeToString(paquet)}).code()
	}
	flux, err := streamname.JumelageStream("J")
	require.NoError(t, err)
	recus := func() (n, plusGros int) {
		for _, e := range evenements(t, data, flux) {
			if e.Type == federation.TypeResultatsSiteRecus {
				n, plusGros = n+1, max(plusGros, len(e.Data))
			}
		}
		return n, plusGros
	}

	gros := paquetDeJoueurs(t, "S", 2000, 1000, "")
	sousAttaque(t, s, "envoyerResultatsJumeles, 2 000 joueurs aux noms de 1 000 lettres ("+strconv.Itoa(len(gros)>>10)+" Kio)", func() {
		assert.Equal(t, "INVALID_RESULTS", envoyer(gros))
	})
	n, plusGros := recus()
	assert.Zero(t, n, "nothing recorded (the largest event: %d bytes)", plusGros)

	codes := map[string]int{}
	sousAttaque(t, s, "envoyerResultatsJumeles, 30 paquets à la suite", func() {
		for i := range 30 {
			codes[envoyer(paquetDeJoueurs(t, "S", 2, 10, strconv.Itoa(i)))]++
		}
	})
	n, _ = recus()
	assert.Positive(t, codes["RATE_LIMITED"], "%v", codes)
	assert.Equal(t, codes[""], n, "each bundle accepted recorded once, none refused")
	assert.Less(t, n, 30, "%v", codes)
}
