// The hall display: the current coup, its state and its chrono (chrono.js:
// §1.3, §3.3, right on a screen whose clock is wrong), the tirage large with
// the reliquat apart from the new letters and the rejets (tirage.js: §3.1,
// §3.2), the last top on the board, and the standings paging by themselves.
// Public data only; updates arrive through the coupAnnonce and
// classementChange subscriptions, and after a cut the page catches up by
// itself (the subscriptions send the current state first).
import { Chrono } from "./chrono.js";
import { lexiqueTexte, ligne, Live, Pager, param, sourceTirage } from "./gql.js";
import { drawBoard } from "./plateau.js";
import { CHAMPS_TIRAGE, montrerTirage, rejetTexte } from "./tirage.js";

  const partie = decodeURIComponent(location.pathname.replace(/^\/affichage\/?/, "").split("/")[0] || "");
  const serie = param("serie");
  const parPage = parseInt(param("lignes") || "15", 10);
  const periode = parseInt(param("secondes") || "8", 10) * 1000;
  const pourcent = new Intl.NumberFormat("fr-FR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  let lignes = [];
  let partieVue = null;

  const PARTIE = `id numero lexique statut coup config { source graineTest } grille dernierTop { coup mot reference score cases } fin { motif }
    ${CHAMPS_TIRAGE} ${Chrono.CHAMPS}`;
  const chrono = new Chrono(document.getElementById("chrono"));
  const LIGNES = `rang nom club score negatif pourcentage provisoire`;

  // etatCoup is where the coup stands, as the hall reads it: the tirage
  // announced, the chrono running, paused or over, the top.
  function etatCoup(p) {
    if (p.fin) return ["terminee", "Partie terminée"];
    if (p.statut === "interrompue") return ["interrompue", "Partie interrompue"];
    if (p.statut === "top") return ["top", "Top annoncé"];
    if (p.statut === "attente_tirage") {
      return p.rejets.length ? ["rejet", "Rejet — nouveau tirage"] : ["attente", "En attente du tirage"];
    }
    const c = chrono.lire();
    const etats = { en_cours: "Chrono en cours", en_pause: "Chrono en pause", ecoule: "Temps écoulé" };
    return c && etats[c.etat] ? [c.etat, etats[c.etat]] : ["tirage", "Tirage"];
  }

  function montrerEtatCoup() {
    if (!partieVue) return;
    const [etat, texte] = etatCoup(partieVue);
    const annonce = document.getElementById("annonce");
    if (annonce.dataset.etat === etat) return;
    annonce.dataset.etat = etat;
    document.getElementById("etat-coup").textContent = texte;
  }
  setInterval(montrerEtatCoup, 250); // the chrono runs out between two updates

  function montrerPartie(p) {
    if (!p) return;
    partieVue = p;
    chrono.recevoir(p.chrono);
    montrerEtatCoup();
    document.getElementById("interruption").hidden = p.statut !== "interrompue";
    montrerTirage(document.getElementById("tirage"), p.reliquat, p.nouvelles);
    const rejet = document.getElementById("rejet");
    rejet.hidden = p.rejets.length === 0;
    rejet.textContent = p.rejets.map(rejetTexte).join(" ; ");
    document.getElementById("titre").textContent = "Partie " + (p.numero || p.id) + (serie ? " — série " + serie : "");
    document.getElementById("coup").textContent = p.fin ? "Partie terminée" : "Coup " + p.coup;
    document.getElementById("source-tirage").textContent = sourceTirage(p.config);
    document.getElementById("lexique").textContent = lexiqueTexte(p.lexique);
    const top = p.dernierTop;
    const el = document.getElementById("top");
    if (top) {
      el.innerHTML = "";
      el.append("Top du coup " + top.coup + " : ");
      const mot = document.createElement("span");
      mot.className = "mot";
      mot.textContent = top.mot;
      el.append(mot, " en " + top.reference + " — " + top.score + " pts");
    } else {
      el.textContent = "En attente du premier top";
    }
    drawBoard(document.getElementById("plateau"), p.grille, top ? top.cases : []);
  }

  const pager = new Pager(document.getElementById("lignes"), document.getElementById("page"), parPage, periode);

  function montrerLignes() {
    document.getElementById("provisoire").hidden = !lignes.some((l) => l.provisoire);
    pager.set(lignes.map((l) => ligne([[l.rang, true], [l.nom, false], [l.club || "", false], [l.score, true],
      [l.negatif, true], [pourcent.format(l.pourcentage), true]])));
  }

  const etat = document.getElementById("etat");
  function montrerEtat(texte, alerte) {
    etat.textContent = texte;
    etat.className = "etat" + (alerte ? " hors-ligne" : "");
  }
  // An outage is said plainly, across the screen; the chrono goes on
  // counting from the last time the server gave (chrono.js), marked as the
  // screen's own estimate until the server answers again.
  function montrerConnexion(connecte) {
    montrerEtat(connecte ? "en direct" : "reconnexion…", !connecte);
    const panne = document.getElementById("panne");
    panne.hidden = connecte;
    panne.textContent = connecte ? "" : "Serveur injoignable : reconnexion en cours. Le chrono continue d'après la dernière heure reçue du serveur.";
    document.getElementById("chrono").classList.toggle("estime", !connecte);
  }
  const live = new Live(null, montrerConnexion);
  const erreur = (e) => montrerEtat(e.message || "erreur", true);
  live.subscribe(`subscription($p: ID!) { coupAnnonce(partie: $p) { ${PARTIE} } }`,
    { p: partie }, (d) => { montrerEtat("en direct"); montrerPartie(d.coupAnnonce); }, erreur);
  live.subscribe(`subscription($p: ID!, $s: String) { classementChange(partie: $p, serie: $s) { ${LIGNES} } }`,
    { p: partie, s: serie }, (d) => { lignes = d.classementChange; montrerLignes(); }, erreur);
