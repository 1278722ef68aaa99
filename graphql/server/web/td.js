// The classique TD console, /directeur/classique/<tournoi>: everything the
// director does from the opening to the closing, through the GraphQL API
// only, with the shared sign-in (session.js) and list reader (liste.js).
// Each action sends the tournament's version (a stale page gets CONFLICT and
// reloads) and a clientMutationId (a retry is applied once); the page is
// redrawn from the state the server answers. Irreversible actions (seeding,
// publication, closing) ask for confirmation (actions.js): Entrée confirms,
// Échap cancels.
import { cleAction, confirmer, message } from "./actions.js";
import { coteClassique, COTES_CALCULEES, finsClassique, nomsClassique, relireCotes, scoreTable } from "./classique-commun.js";
import { ligne } from "./gql.js";
import { lireListe } from "./liste.js";
import { Session } from "./session.js";

  const $ = (id) => document.getElementById(id);
  const tournoi = decodeURIComponent(location.pathname.replace(/^\/directeur\/classique\/?/, "").split("/")[0] || "");
  const RAISONS = "raisons { revanches exempt texteExempt tables { numero revanche debut texteDebut } }";
  const CHAMPS = `id nom version rondes clos tetesDeSerie inscrits { joueur nom cote retire }
    publiees { ronde exempt amendee tables { numero premier second match
      resultat { joueurs fin scores pointsDeMatch correction } } }
    proposition { ronde methode exempt tables { numero premier second } ${RAISONS}
      amendement { motif exempt tables { numero premier second } ${RAISONS} } }
    classement { rang joueur nom pointsDeMatch ppm pdep ecart cote parties retire } ${COTES_CALCULEES}`;
  // §9: the endings that name the player who forfeits, abandons or is sanctioned.
  const SANCTIONS = ["forfait", "abandon", "abandon_unilateral", "defaite_arbitrale", "defaite_huit_lettres"];
  const FINS = [["reliquat_epuise", "partie jouée (§7)"], ["blocage", "blocage (§7)"], ["temps_epuise", "temps épuisé (§7)"],
    ["six_passes", "six passes (§4.2)"], ["forfait", "forfait (§9)"], ["abandon", "abandon accepté (§9)"],
    ["abandon_unilateral", "abandon sans accord (§9)"], ["defaite_arbitrale", "défaite arbitrale (§8, §9)"],
    ["defaite_huit_lettres", "huit lettres (§9)"]];

  let etat = null;
  let noms = {};
  let lot = [];

  const session = new Session("Jeton du directeur", charger, ["DIRECTOR"]);

  // --- messages and confirmation -------------------------------------------

  const dire = message;

  // --- the API -------------------------------------------------------------

  async function charger() {
    if (!tournoi) return choisir();
    try {
      const d = await session.query(`query($t: ID!) { tournoiClassique(id: $t) { ${CHAMPS} } }`, { t: tournoi });
      montrer(d.tournoiClassique);
    } catch (e) {
      dire(e.message, true);
    }
  }

  // agir runs one tournament mutation with the page's version and a fresh
  // clientMutationId, and redraws from the answer; a refusal is shown in
  // French and changes nothing (a CONFLICT reloads the tournament).
  async function agir(champ, args, vars, reussite) {
    const decl = Object.entries(args).map(([k, type]) => `$${k}: ${type}`).join(", ");
    const passe = Object.keys(args).map((k) => `${k}: $${k}`).join(", ");
    const q = `mutation($tournoi: ID!, $version: Int, $clientMutationId: String${decl ? ", " + decl : ""}) {
      ${champ}(tournoi: $tournoi, version: $version, clientMutationId: $clientMutationId${passe ? ", " + passe : ""}) { ${CHAMPS} } }`;
    try {
      const d = await session.query(q, Object.assign({ tournoi, version: etat.version, clientMutationId: cleAction("td") }, vars));
      montrer(d[champ]);
      dire(reussite, false);
      return true;
    } catch (e) {
      dire(e.message, true);
      if (e.code === "CONFLICT") charger();
      return false;
    }
  }

  // --- opening ---------------------------------------------------------------

  async function choisir() {
    montrer(null);
    try {
      const d = await session.query(`{ tournois(first: 100) { edges { node { id type nom closLe } } } }`);
      const ul = $("tournois");
      ul.replaceChildren();
      for (const { node } of d.tournois.edges) {
        if (node.type !== "classique") continue;
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = "/directeur/classique/" + encodeURIComponent(node.id);
        a.textContent = `${node.nom} (${node.id})${node.closLe ? " — clos" : ""}`;
        li.appendChild(a);
        ul.appendChild(li);
      }
      $("choix").hidden = !ul.children.length;
    } catch (e) {
      dire(e.message, true);
    }
  }

  $("form-ouverture").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = ev.target.elements;
    const id = f.id.value.trim();
    try {
      await session.query(`mutation($id: ID!, $nom: String!, $rondes: Int!, $c: String) {
        ouvrirTournoiClassique(id: $id, nom: $nom, rondes: $rondes, clientMutationId: $c) { id } }`,
      { id, nom: f.nom.value.trim(), rondes: parseInt(f.rondes.value, 10), c: cleAction("td") });
      if (id !== tournoi) {
        location.assign("/directeur/classique/" + encodeURIComponent(id));
        return;
      }
      await charger();
      dire(`Tournoi ${id} ouvert : inscrivez les joueurs.`, false);
    } catch (e) {
      dire(e.message, true);
    }
  });

  // --- registration ------------------------------------------------------------

  const COLONNES = [{ cle: "licence", requis: true }, { cle: "nom", requis: true }, { cle: "cote", entier: true }];

  // apercu reads the list and names every bad line before anything is
  // written; players already registered count as bad lines too.
  function apercu() {
    const { lignes, erreurs } = lireListe($("liste").value, COLONNES);
    for (const l of lignes) {
      if (noms[l.licence] !== undefined) erreurs.push({ n: l.n, message: `licence ${l.licence} déjà inscrite` });
    }
    erreurs.sort((a, b) => a.n - b.n);
    montrerApercu(lignes, erreurs);
  }

  // montrerApercu shows a list's lines and its bad lines, and says what can
  // be written; an empty list (after a registration) says nothing.
  function montrerApercu(lignes, erreurs) {
    $("fautes").replaceChildren(...erreurs.map((e) => {
      const li = document.createElement("li");
      li.textContent = e.n ? `ligne ${e.n} : ${e.message}` : e.message;
      return li;
    }));
    $("lignes-apercu").replaceChildren(...lignes.map((l) => ligne([[l.n, true], [l.licence, false], [l.nom, false], [l.cote || 0, true]])));
    $("table-apercu").hidden = !lignes.length;
    lot = erreurs.length ? [] : lignes;
    const b = $("inscrire");
    b.disabled = !lot.length;
    b.textContent = lot.length ? `Inscrire les ${lot.length} joueurs` : "Inscrire la liste";
    if (erreurs.length) dire(`${erreurs.length} ligne(s) à corriger : rien n'est écrit.`, true);
    else if (lot.length) dire(`${lot.length} joueurs prêts à inscrire.`, false);
  }

  $("apercu").addEventListener("click", apercu);
  $("liste").addEventListener("input", () => { lot = []; $("inscrire").disabled = true; });
  $("fichier").addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    $("liste").value = await f.text();
    apercu();
  });
  $("inscrire").addEventListener("click", async () => {
    const joueurs = lot.map((l) => ({ joueur: l.licence, nom: l.nom, cote: l.cote || 0 }));
    if (await agir("inscrireClassiqueLot", { joueurs: "[InscriptionClassiqueInput!]!" }, { joueurs }, `${joueurs.length} joueurs inscrits.`)) {
      $("liste").value = "";
      montrerApercu([], []); // the emptied list is not checked again (issue 31 item 9)
    }
  });
  $("tetes").addEventListener("click", async () => {
    if (await confirmer(`Établir les têtes de série de ${etat.inscrits.length} joueurs ? Les inscriptions seront closes.`)) {
      agir("etablirTetesDeSerie", {}, {}, "Têtes de série établies : proposez la première ronde.");
    }
  });

  // --- pairing -----------------------------------------------------------------

  $("proposer-ronde").addEventListener("click", () => {
    agir("proposerRonde", { methode: "MethodeAppariement!" }, { methode: $("methode").value }, "Appariement proposé : vérifiez-le, amendez-le au besoin, puis publiez.");
  });

  // appariementCourant is the pairing that would be published: the
  // amendment if any, else the proposal.
  function appariementCourant() {
    const p = etat.proposition;
    return p.amendement ? { tables: p.amendement.tables, exempt: p.amendement.exempt, raisons: p.amendement.raisons }
      : { tables: p.tables, exempt: p.exempt, raisons: p.raisons };
  }

  // echanger swaps two players of the current pairing (the bye included)
  // and sends the result as the amendment; the server checks it.
  $("echanger").addEventListener("click", () => {
    const a = $("echange-a").value, b = $("echange-b").value;
    if (!a || !b || a === b) { dire("Choisissez deux joueurs différents à échanger.", true); return; }
    const courant = appariementCourant();
    const autre = (j) => (j === a ? b : j === b ? a : j);
    const tables = courant.tables.map((tb) => ({ premier: autre(tb.premier), second: autre(tb.second) }));
    const exempt = courant.exempt ? autre(courant.exempt) : null;
    const motif = $("motif-amendement").value.trim() || `échange de ${noms[a]} et ${noms[b]}`;
    agir("amenderRonde", { tables: "[TableAmendeeInput!]!", exempt: "ID", motif: "String" }, { tables, exempt, motif },
      `Amendement enregistré : ${noms[a]} ⇄ ${noms[b]}.`);
  });

  $("publier").addEventListener("click", async () => {
    const r = etat.proposition.ronde;
    if (await confirmer(`Publier la ronde ${r} ? Les tables seront affichées et jouées ; l'appariement ne pourra plus changer.`)) {
      agir("publierRonde", {}, {}, `Ronde ${r} publiée : saisissez les résultats table par table.`);
    }
  });

  // --- results -------------------------------------------------------------------

  // ligneSaisie builds the entry cells of a table: scores (first player
  // first), ending, the player concerned, the reason of a correction.
  function ligneSaisie(tb, correction) {
    const td = document.createElement("td");
    td.className = "saisie";
    const s1 = champ("number", "s1", `score de ${noms[tb.premier]}`);
    const s2 = champ("number", "s2", `score de ${noms[tb.second]}`);
    const fin = document.createElement("select");
    fin.className = "fin";
    fin.setAttribute("aria-label", `fin de la partie, table ${tb.numero}`);
    for (const [v, texte] of FINS) fin.add(new Option(texte, v));
    // The player who forfeits, abandons or is sanctioned (§9), labelled.
    const qui = document.createElement("select");
    qui.className = "joueur";
    qui.add(new Option(noms[tb.premier], tb.premier));
    qui.add(new Option(noms[tb.second], tb.second));
    const concerne = document.createElement("label");
    concerne.className = "concerne";
    concerne.append("joueur concerné ", qui);
    const motif = champ("text", "motif", "motif de la correction");
    motif.hidden = !correction;
    const bouton = document.createElement("button");
    bouton.type = "button";
    bouton.className = "enregistrer";
    bouton.textContent = correction ? "Corriger" : "Enregistrer";
    const r = tb.resultat;
    if (r) {
      const p = r.joueurs.indexOf(tb.premier);
      s1.value = r.scores[p];
      s2.value = r.scores[1 - p];
      fin.value = r.fin;
    }
    const regler = () => {
      const sanction = SANCTIONS.includes(fin.value);
      concerne.hidden = !sanction;
      s1.disabled = s2.disabled = fin.value === "forfait";
    };
    fin.addEventListener("change", regler);
    regler();
    const envoyer = () => {
      const vars = { match: tb.match, fin: fin.value, scores: null, joueur: null };
      if (fin.value !== "forfait") {
        if (s1.value === "" || s2.value === "") { dire(`Table ${tb.numero} : les deux scores sont requis.`, true); return; }
        vars.scores = [parseInt(s1.value, 10), parseInt(s2.value, 10)];
      }
      if (SANCTIONS.includes(fin.value)) vars.joueur = qui.value;
      const args = { match: "ID!", fin: "FinClassique", scores: "[Int!]", joueur: "ID" };
      if (correction) {
        args.motif = "String!";
        vars.motif = motif.value.trim();
        agir("corrigerResultatClassique", args, vars, `Table ${tb.numero} : résultat corrigé.`);
      } else {
        agir("saisirResultatClassique", args, vars, `Table ${tb.numero} : résultat enregistré.`);
      }
    };
    bouton.addEventListener("click", envoyer);
    for (const el of [s1, s2, motif]) el.addEventListener("keydown", (ev) => { if (ev.key === "Enter") envoyer(); });
    td.append(s1, s2, fin, concerne, motif, bouton);
    return td;
  }

  function champ(type, classe, libelle) {
    const i = document.createElement("input");
    i.type = type;
    i.className = classe;
    i.setAttribute("aria-label", libelle);
    i.title = libelle;
    // A score field is narrow: its placeholder says only what it takes.
    i.placeholder = type === "number" ? "score" : libelle;
    if (type === "number") { i.min = 0; i.max = 2000; }
    return i;
  }

  function texteResultat(tb) {
    const r = tb.resultat;
    if (!r) return "à saisir";
    const p = r.joueurs.indexOf(tb.premier);
    const corr = r.correction ? ` — corrigé : ${r.correction}` : "";
    return `${scoreTable(tb)} (${finsClassique[r.fin] || r.fin}) — PM ${r.pointsDeMatch[p]}–${r.pointsDeMatch[1 - p]}${corr}`;
  }

  // --- drawing ---------------------------------------------------------------------

  function montrer(t) {
    etat = t;
    noms = t ? nomsClassique(t) : {};
    const seme = !!(t && t.tetesDeSerie.length);
    const derniere = t && t.publiees.length ? t.publiees[t.publiees.length - 1] : null;
    const complete = !derniere || derniere.tables.every((tb) => tb.resultat);
    $("ouverture").hidden = !!t;
    if (!t) {
      const f = $("form-ouverture").elements;
      if (tournoi) { f.id.value = tournoi; f.id.readOnly = true; }
      $("titre").textContent = "Tournoi classique";
      $("etape").textContent = tournoi ? `${tournoi} n'existe pas encore` : "";
      $("liens").hidden = true;
      for (const id of ["inscription", "proposer", "appariement", "resultats", "cloture", "standings"]) $(id).hidden = true;
      return;
    }
    document.title = `Arbitre — ${t.nom}`;
    $("titre").textContent = t.nom;
    $("etape").textContent = t.clos ? (t.cotesCalculees.length ? "Tournoi clos — cotes calculées" : "Tournoi clos — cotes en calcul…") : !seme ? "Inscriptions"
      : t.proposition ? `Ronde ${t.proposition.ronde} / ${t.rondes} : appariement` : derniere ? `Ronde ${derniere.ronde} / ${t.rondes}` : "Têtes de série faites";
    $("liens").hidden = !derniere;
    if (derniere) {
      const base = "/impression/classique/" + encodeURIComponent(t.id);
      $("imprimer-appariements").href = `${base}/appariements?ronde=${derniere.ronde}`;
      $("imprimer-feuilles").href = `${base}/feuilles?ronde=${derniere.ronde}`;
      $("imprimer-classement").href = `${base}/classement`;
    }

    $("inscription").hidden = seme;
    $("nb-inscrits").textContent = t.inscrits.length;
    $("inscrits").replaceChildren(...t.inscrits.map((i) => ligne([[i.joueur, false], [i.nom, false], [i.cote, true]])));
    $("tetes").disabled = t.inscrits.length < 2;

    const prochaine = t.publiees.length + 1;
    $("proposer").hidden = !seme || t.clos || !!t.proposition || t.publiees.length >= t.rondes || !complete;
    $("titre-proposer").textContent = `Ronde ${prochaine} / ${t.rondes}`;
    $("methode").value = t.publiees.length ? "swiss" : "initial_by_cote";

    $("appariement").hidden = !t.proposition;
    if (t.proposition) montrerAppariement(t.proposition);

    $("resultats").hidden = !derniere;
    if (derniere) {
      $("titre-resultats").textContent = `Résultats de la ronde ${derniere.ronde}`;
      $("tables-publiees").replaceChildren(...derniere.tables.map((tb) => {
        const tr = ligne([[tb.numero, true], [noms[tb.premier], false], [noms[tb.second], false], [texteResultat(tb), false]]);
        tr.dataset.table = tb.numero;
        tr.className = tb.resultat ? "fait" : "";
        tr.appendChild(ligneSaisie(tb, !!tb.resultat));
        return tr;
      }));
      $("exempt-publie").textContent = derniere.exempt ? `Exempt : ${noms[derniere.exempt]} (450–350 contre le joueur fictif)` : "";
      if (t.clos) for (const el of $("tables-publiees").querySelectorAll("input, select, button")) el.disabled = true;
    }

    $("cloture").hidden = t.clos || t.publiees.length < t.rondes || !complete;
    $("standings").hidden = !seme;
    $("classement").replaceChildren(...t.classement.map((l) => ligne([[l.rang, true], [l.nom + (l.retire ? " (retiré)" : ""), false],
      [l.joueur, false], [l.pointsDeMatch, true], [l.ppm, true], [l.pdep, true], [l.ecart, true], [coteClassique(t, l), true],
      [l.parties, true]])));
    relireCotes(t, charger);
  }

  function montrerAppariement(p) {
    const c = appariementCourant();
    $("titre-appariement").textContent = `Ronde ${p.ronde} : appariement ${p.amendement ? "amendé par le directeur" : "proposé par le logiciel"}`;
    const rev = c.raisons.revanches;
    $("resume-raisons").textContent = (rev ? `${rev} revanche(s) dans cet appariement.` : "Aucune revanche : toutes ont été évitées.") +
      (p.amendement && p.amendement.motif ? ` Motif de l'amendement : ${p.amendement.motif}.` : "");
    const raison = {};
    for (const r of c.raisons.tables) raison[r.numero] = r;
    $("tables-proposees").replaceChildren(...c.tables.map((tb) => {
      const r = raison[tb.numero] || { texteDebut: "", revanche: null };
      const tr = ligne([[tb.numero, true], [noms[tb.premier], false], [noms[tb.second], false],
        [`${noms[tb.premier]} ${r.texteDebut}`, false], [r.revanche ? `revanche de la ronde ${r.revanche}` : "—", false]]);
      if (r.revanche) tr.className = "revanche";
      return tr;
    }));
    $("exempt-propose").textContent = c.exempt ? `Exempt : ${noms[c.exempt]} — ${c.raisons.texteExempt}` : "Pas d'exempt.";
    const joueurs = [];
    for (const tb of c.tables) joueurs.push(tb.premier, tb.second);
    if (c.exempt) joueurs.push(c.exempt);
    for (const id of ["echange-a", "echange-b"]) {
      const s = $(id);
      const avant = s.value;
      s.replaceChildren(new Option("—", ""), ...joueurs.map((j) => new Option(`${noms[j]} (${j})`, j)));
      s.value = joueurs.includes(avant) ? avant : "";
    }
  }

  $("clore").addEventListener("click", async () => {
    if (await confirmer("Clore le tournoi ? Les cotes seront calculées ; plus aucun résultat ne pourra changer.")) {
      agir("cloreTournoiClassique", {}, {}, "Tournoi clos.");
    }
  });
