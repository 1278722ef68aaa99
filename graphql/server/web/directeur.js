// The director's console, /directeur: the duplicate tournaments, a new one,
// the registration of a pasted or uploaded list (every bad line named before
// anything is written, then one all-or-nothing inscrireJoueurs) and a new
// game with its configuration; the game is then run from
// /directeur/partie/<partie>. The chosen tournament is kept in the address
// (?tournoi=ID) so a reload stays on it.
import { cleAction, confirmer, message } from "./actions.js";
import { ligne, param } from "./gql.js";
import { lireListe } from "./liste.js";
import { Session } from "./session.js";

  const $ = (id) => document.getElementById(id);
  const COLONNES = (inscrits) => [
    { cle: "licence", requis: true, valide: (v) => !inscrits.has(v) || `licence ${v} déjà inscrite au tournoi` },
    { cle: "nom", requis: true },
    { cle: "club" },
    { cle: "serie", valide: (v) => /^[A-Za-z0-9]{1,3}$/.test(v) || `série « ${v} » : une lettre ou un chiffre (A, B, 1…)` },
    { cle: "table", entier: true },
  ];
  const TOURNOI = `id nom version homologue joueurs { licence nom club serie table } parties`;
  let tournoi = null;
  let apercu = null;

  const session = new Session("Jeton du directeur", demarrer, ["DIRECTOR"]);

  async function demarrer() {
    $("contenu").hidden = false;
    try {
      await listerTournois();
      const id = param("tournoi");
      if (id) await ouvrir(id);
    } catch (e) {
      message(e.message, true);
    }
  }

  // listerTournois reads the archive's duplicate tournaments, page by page.
  async function listerTournois() {
    const ul = $("liste-tournois");
    const items = [];
    let apres = null;
    for (;;) {
      const d = await session.query(`query($a: String) { tournois(first: 100, after: $a) {
        edges { cursor node { id nom type nombreParties } } pageInfo { hasNextPage } } }`, { a: apres });
      for (const e of d.tournois.edges) {
        if (e.node.type !== "duplicate") continue;
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.tournoi = e.node.id;
        b.textContent = `${e.node.nom} (${e.node.id}) — ${e.node.nombreParties} partie(s)`;
        b.addEventListener("click", () => ouvrir(e.node.id).catch((err) => message(err.message, true)));
        li.appendChild(b);
        items.push(li);
      }
      if (!d.tournois.pageInfo.hasNextPage) break;
      apres = d.tournois.edges.length ? d.tournois.edges[d.tournois.edges.length - 1].cursor : null;
    }
    ul.replaceChildren(...items);
    if (!items.length) ul.textContent = "Aucun tournoi duplicate pour l'instant.";
  }

  async function ouvrir(id) {
    const d = await session.query(`query($t: ID!) { tournoi(id: $t) { ${TOURNOI} } }`, { t: id });
    if (!d.tournoi) {
      message(`Le tournoi ${id} n'existe pas.`, true);
      return;
    }
    montrer(d.tournoi);
    history.replaceState(null, "", "/directeur?tournoi=" + encodeURIComponent(id));
  }

  function montrer(t) {
    tournoi = t;
    $("tournoi").hidden = $("import").hidden = $("nouvelle-partie").hidden = false;
    $("tournoi-titre").textContent = `${t.nom} (${t.id}) — ${t.homologue ? "homologué" : "amical ou de test"} — ${t.joueurs.length} joueur(s)`;
    $("joueurs").replaceChildren(...t.joueurs.map((j) => ligne([[j.licence, false], [j.nom, false],
      [j.club || "", false], [j.serie || "", false], [j.table == null ? "" : j.table, true]])));
    $("parties").replaceChildren(...t.parties.map((p) => {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = "/directeur/partie/" + encodeURIComponent(p);
      a.dataset.partie = p;
      a.textContent = p;
      li.appendChild(a);
      return li;
    }));
    if (!t.parties.length) $("parties").textContent = "Aucune partie.";
  }

  $("creer-tournoi").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const id = $("tournoi-id").value.trim(), nom = $("tournoi-nom").value.trim(), homologue = $("tournoi-homologue").checked;
    try {
      const d = await session.query(`mutation($id: ID!, $nom: String!, $h: Boolean!, $c: String) {
        creerTournoi(id: $id, nom: $nom, homologue: $h, clientMutationId: $c) { ${TOURNOI} } }`, { id, nom, h: homologue, c: cleAction() });
      montrer(d.creerTournoi);
      history.replaceState(null, "", "/directeur?tournoi=" + encodeURIComponent(id));
      message(`Tournoi ${nom} créé.`);
      $("creer-tournoi").reset();
      listerTournois().catch(() => {});
    } catch (e) {
      message(e.message, true);
    }
  });

  // verifier reads the list and shows every row and every bad line; nothing
  // is written.
  function verifier() {
    const inscrits = new Set(tournoi.joueurs.map((j) => j.licence));
    const { lignes, erreurs } = lireListe($("liste").value, COLONNES(inscrits));
    apercu = erreurs.length ? null : lignes;
    $("apercu").hidden = false;
    $("apercu-resume").textContent = erreurs.length
      ? `${erreurs.length} ligne(s) à corriger : rien n'est inscrit.`
      : `${lignes.length} joueur(s) prêts à être inscrits.`;
    $("apercu-erreurs").replaceChildren(...erreurs.map((e) => {
      const li = document.createElement("li");
      li.dataset.ligne = e.n;
      li.textContent = `ligne ${e.n} : ${e.message}`;
      return li;
    }));
    $("apercu-lignes").replaceChildren(...lignes.map((l) => ligne([[l.n, true], [l.licence, false], [l.nom, false],
      [l.club || "", false], [l.serie || "", false], [l.table == null ? "" : l.table, true]])));
    const b = $("inscrire");
    b.disabled = !apercu || !apercu.length;
    b.textContent = apercu ? `Inscrire ${apercu.length} joueur(s)` : "Inscrire";
  }

  $("verifier").addEventListener("click", verifier);
  $("liste").addEventListener("input", () => { apercu = null; $("inscrire").disabled = true; });
  $("fichier").addEventListener("change", async () => {
    const f = $("fichier").files[0];
    if (!f) return;
    $("liste").value = await f.text();
    verifier();
  });

  $("inscrire").addEventListener("click", async () => {
    if (!apercu || !(await confirmer(`Inscrire ${apercu.length} joueur(s) au tournoi ${tournoi.nom} ?`))) return;
    const joueurs = apercu.map((l) => {
      const j = { licence: l.licence, nom: l.nom };
      for (const k of ["club", "serie", "table"]) if (l[k] !== undefined) j[k] = l[k];
      return j;
    });
    try {
      const d = await session.query(`mutation($t: ID!, $j: [JoueurInput!]!, $v: Int, $c: String) {
        inscrireJoueurs(tournoi: $t, joueurs: $j, version: $v, clientMutationId: $c) { ${TOURNOI} } }`,
      { t: tournoi.id, j: joueurs, v: tournoi.version, c: cleAction() });
      montrer(d.inscrireJoueurs);
      message(`${joueurs.length} joueur(s) inscrit(s).`);
      $("liste").value = "";
      $("apercu").hidden = true;
      apercu = null;
    } catch (e) {
      message(e.message, true);
    }
  });

  $("creer-partie").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const id = $("partie-id").value.trim();
    const config = {
      tempsParCoupSecondes: parseInt($("temps").value, 10), formule: $("formule").value, variante: $("variante").value,
      source: $("source").value, mode: $("mode").value,
    };
    if ($("graine").value !== "") config.graine = parseInt($("graine").value, 10);
    try {
      await session.query(`mutation($t: ID!, $p: ID!, $cfg: ConfigPartieInput!, $c: String) {
        creerPartie(tournoi: $t, partie: $p, config: $cfg, clientMutationId: $c) { id } }`,
      { t: tournoi.id, p: id, cfg: config, c: cleAction() });
      location.href = "/directeur/partie/" + encodeURIComponent(id);
    } catch (e) {
      message(e.message, true);
    }
  });
