package main

// The hall display during incidents (issue 31 item 12).

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestE2EAffichage_Paragraphe3_7_InterruptionEtPanne: an interruption
// (§3.7) was not said on the hall screen, and during a server outage the
// chrono showed large white digits with a small « reconnexion… ». The
// interruption is now said across the screen until the game resumes; an
// outage is said plainly, and the chrono goes on counting from the last
// time the server gave, marked as the screen's estimate until it answers.
func TestE2EAffichage_Paragraphe3_7_InterruptionEtPanne(t *testing.T) {
	salle := ouvrirSalle(t)
	relais := nouveauRelais(t, salle.addr)
	ctx := navigateur(t, 1280, 720)
	executer(t, ctx, chromedp.Navigate("http://"+relais.addr()+"/affichage/"+e2ePartieLive))
	attendre(t, ctx, jsTexte("#etat", "en direct"), e2eAttente, "the live state")
	p := map[string]any{"p": e2ePartieLive}
	salle.directeur.exiger(t, `mutation($p: ID!) { tirer(partie: $p) { statut } }`, p, nil)
	salle.directeur.exiger(t, `mutation($p: ID!) { demarrerChrono(partie: $p) { statut } }`, p, nil)
	etatChrono(t, ctx, "en_cours")

	// §3.7: the interruption, said until the game resumes.
	salle.directeur.exiger(t, `mutation($p: ID!) { interrompre(partie: $p) { statut } }`, p, nil)
	attendre(t, ctx, `!document.getElementById("interruption").hidden && `+
		jsTexte("#interruption", "Partie interrompue (§3.7) — le chrono est arrêté"), e2eAttente, "the interruption across the screen")
	etatChrono(t, ctx, "en_pause")
	salle.directeur.exiger(t, `mutation($p: ID!) { reprendre(partie: $p) { statut } }`, p, nil)
	attendre(t, ctx, `document.getElementById("interruption").hidden`, e2eAttente, "the banner gone once resumed")
	etatChrono(t, ctx, "en_cours")

	// An outage: said plainly, the chrono counting on, marked an estimate.
	relais.interrompre()
	attendre(t, ctx, `!document.getElementById("panne").hidden && document.getElementById("chrono").classList.contains("estime")`,
		e2eAttente, "the outage said")
	attendre(t, ctx, jsTexte("#panne", "Serveur injoignable : reconnexion en cours. Le chrono continue d'après la dernière heure reçue du serveur."),
		e2eAttente, "the outage's words")
	var restant string
	evaluer(t, ctx, `document.getElementById("chrono").dataset.restant`, &restant)
	avant, err := strconv.Atoi(restant)
	require.NoError(t, err)
	attendre(t, ctx, fmt.Sprintf(`parseInt(document.getElementById("chrono").dataset.restant, 10) < %d && document.getElementById("chrono").dataset.etat === "en_cours"`, avant),
		e2eAttente, "the chrono counting on during the outage")
	relais.retablir()
	attendre(t, ctx, `document.getElementById("panne").hidden && !document.getElementById("chrono").classList.contains("estime") && `+jsTexte("#etat", "en direct"),
		e2eAttente, "the display live again")
}
