// The arbiter's bulletin entry for one duplicate game (/arbitre/partie/<partie>),
// for the tables of his token (the server derives the scope from the
// tournament's registrations and refuses any other table). A bulletin is
// typed as the player wrote it (§4: word with the joker in parentheses,
// reference, score, the boxes of the billet); the engine's decision
// (apercuBulletin, §5) shows as it is typed, with its article; the arbiter
// accepts it or decides otherwise with a reason (corrigerBulletin). A second
// arbiter confirms or amends a correction (contreArbitrer, guide §5 double
// arbitrage). « Billet remis » records that the billet de correction was
// handed to the player (emettreBillet, §5.9: no average after it). Every command goes through the offline queue (file.js): typed
// during a network cut, it is sent when the connection returns, once.
// mesures keeps the page's own time per bulletin, network excluded; the
// page publishes it on window for the end-to-end test that reports it.
import { cleAction } from "./actions.js";
import { Decision } from "./decision.js";
import { File } from "./file.js";
import { derniere, lexiqueTexte, sourceTirage } from "./gql.js";
import { Session } from "./session.js";

  const partie = decodeURIComponent(location.pathname.replace(/^\/arbitre\/partie\/?/, "").split("/")[0] || "");
  const $ = (id) => document.getElementById(id);
  const mesures = { saisie: [], apercu: [] };
  window.Arbitre = { mesures };

  const D = "paye sanction raisons place scoreRenvoye commission";
  const ETAT = `query($p: ID!) { moi { jeton role tables }
    partie(id: $p) { tournoi lexique statut coup config { source graineTest } tops { coup mot reference score } } }`;
  const JOUEURS = `query($t: ID!) { tournoi(id: $t) { joueurs { licence nom table } } }`;
  const BULLETINS = `query($p: ID!, $c: Int!) { bulletins(partie: $p, coup: $c) { licence ecrit corrigePar motif billetRemis
    decisionMoteur { ${D} } decisionArbitre { ${D} } decision { ${D} }
    contreArbitrage { arbitre confirme motif decision { ${D} } } decisionCommission { ${D} } } }`;
  const APERCU = `query($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!) {
    apercuBulletin(partie: $p, coup: $c, licence: $l, bulletin: $b) { ${D} } }`;
  const DEPOSER = `mutation($p: ID!, $c: Int!, $l: ID!, $b: BulletinInput!, $clientMutationId: String) {
    deposerBulletin(partie: $p, coup: $c, licence: $l, bulletin: $b, clientMutationId: $clientMutationId) { licence } }`;
  const CORRIGER = `mutation($p: ID!, $c: Int!, $l: ID!, $d: DecisionInput, $m: String, $clientMutationId: String) {
    corrigerBulletin(partie: $p, coup: $c, licence: $l, decision: $d, motif: $m, clientMutationId: $clientMutationId) { licence } }`;
  const CONTRE = `mutation($p: ID!, $c: Int!, $l: ID!, $ok: Boolean!, $d: DecisionInput, $m: String, $clientMutationId: String) {
    contreArbitrer(partie: $p, coup: $c, licence: $l, confirme: $ok, decision: $d, motif: $m, clientMutationId: $clientMutationId) { licence } }`;
  const BILLET = `mutation($p: ID!, $c: Int!, $l: ID!, $clientMutationId: String) {
    emettreBillet(partie: $p, coup: $c, licence: $l, clientMutationId: $clientMutationId) { licence } }`;
  const SUIVI = `subscription($p: ID!) { coupAnnonce(partie: $p) { statut coup tops { coup mot reference score } } }`;

  const etat = {
    moi: null, statut: "", coupPartie: 0, tops: new Map(), joueurs: [], parLicence: new Map(),
    bulletins: new Map(), apercu: null, coupChoisi: false, live: null, file: null,
    envoi: null, // the last group queued: { groupe, nom }
  };
  const session = new Session("Jeton d'arbitre", charger, ["ARBITER", "DIRECTOR"]);
  $("titre").textContent = `Saisie des bulletins — partie ${partie}`;
  $("scores").href = "/scores/" + encodeURIComponent(partie);

  // --- loading ---------------------------------------------------------------

  // charger reads who signs in, the game and the players of his tables; an
  // unreachable server is tried again.
  async function charger() {
    let d, t;
    try {
      d = await session.query(ETAT, { p: partie });
      if (!d.partie) return alerte(`La partie ${partie} n'existe pas.`);
      t = d.partie.tournoi ? await session.query(JOUEURS, { t: d.partie.tournoi }) : null;
    } catch (e) {
      if (e.code) return alerte(e.message);
      alerte("Serveur injoignable : nouvel essai dans 2 s.");
      setTimeout(charger, 2000);
      return;
    }
    etat.moi = d.moi;
    $("source-tirage").textContent = sourceTirage(d.partie.config);
    $("lexique").textContent = lexiqueTexte(d.partie.lexique);
    suivre(d.partie);
    const plage = tables(d.moi);
    etat.joueurs = ((t && t.tournoi && t.tournoi.joueurs) || [])
      .filter((j) => plage(j.table))
      .sort((a, b) => (a.table || 0) - (b.table || 0) || a.nom.localeCompare(b.nom, "fr"));
    etat.parLicence = new Map(etat.joueurs.map((j) => [j.licence, j]));
    $("joueurs").replaceChildren(...etat.joueurs.map((j) => {
      const o = document.createElement("option");
      o.value = j.licence;
      o.label = `T${j.table || "-"} · ${j.nom}`;
      return o;
    }));
    if (!etat.file) {
      etat.file = new File(`arbitre.file.${d.moi.jeton}.${partie}`, (e) => session.query(e.query, e.variables), {
        change: afficherAttente,
        fait: () => rafraichirBientot(),
        refus: (e, err) => refuse(e, err),
      });
      etat.live = session.live(enLigne);
      etat.live.subscribe(SUIVI, { p: partie }, (data) => {
        suivre(data.coupAnnonce);
        rafraichirBientot();
      });
    }
    $("contenu").hidden = false;
    nouveauBulletin();
    afficherAttente(etat.file.entrees);
    await rafraichir();
    etat.file.vider();
    document.body.dataset.pret = "1";
  }

  // tables reads the token's range ("1-40", "7", or every table).
  function tables(moi) {
    const m = /^(\d+)(?:-(\d+))?$/.exec((moi && moi.tables) || "");
    if (!m) return () => true;
    const min = +m[1], max = +(m[2] || m[1]);
    return (n) => n >= min && n <= max;
  }

  // suivre takes the game's public state: the coup and its tops.
  function suivre(p) {
    etat.statut = p.statut;
    etat.coupPartie = p.coup;
    etat.tops = new Map(p.tops.map((t) => [t.coup, t]));
    if (!etat.coupChoisi) $("coup").value = coupParDefaut();
    afficherTop();
  }

  // coupParDefaut is the open coup while it is played, else the last topped one.
  function coupParDefaut() {
    if (etat.statut === "tirage" || etat.tops.size === 0) return etat.coupPartie || 1;
    return Math.max(...etat.tops.keys());
  }

  function coup() {
    return parseInt($("coup").value, 10) || 1;
  }

  function afficherTop() {
    const t = etat.tops.get(coup());
    $("top").textContent = t ? `Top : ${t.mot} en ${t.reference} — ${t.score} pts` : "Top pas encore annoncé";
  }

  function enLigne(ok) {
    $("etat").textContent = ok ? "en ligne" : "hors ligne — les bulletins sont gardés et partiront au retour";
    $("etat").classList.toggle("hors-ligne", !ok);
    $("etat").dataset.enLigne = ok ? "1" : "0";
    if (ok && etat.file) {
      etat.file.vider();
      rafraichirBientot();
    }
  }

  // --- the bulletins of the coup ----------------------------------------------

  let minuteur = null;
  function rafraichirBientot() {
    clearTimeout(minuteur);
    minuteur = setTimeout(rafraichir, 100);
  }

  const lireBulletins = derniere((c) => session.query(BULLETINS, { p: partie, c }));
  async function rafraichir() {
    const c = coup();
    try {
      const d = await lireBulletins(c);
      if (!d || c !== coup()) return;
      etat.bulletins = new Map(d.bulletins.map((b) => [b.licence, b]));
    } catch (e) {
      if (e.code) message(e.message);
    }
    afficherListe();
  }

  // enAttente maps each licence to its entries still queued for this coup.
  function enAttente() {
    const m = new Map();
    for (const e of (etat.file && etat.file.entrees) || []) {
      if (e.variables.c === coup()) m.set(e.variables.l, (m.get(e.variables.l) || 0) + 1);
    }
    return m;
  }

  function afficherAttente(entrees) {
    const n = new Set(entrees.map((e) => e.groupe)).size;
    $("attente").dataset.n = String(n);
    $("attente").textContent = n ? `${n} envoi${n > 1 ? "s" : ""} en attente` : "";
    direEnvoi();
    afficherListe();
  }

  function afficherListe() {
    const attente = enAttente();
    const moi = etat.moi ? "jeton:" + etat.moi.jeton : "";
    const tbody = $("bulletins");
    etat.joueurs.forEach((j, i) => {
      const b = etat.bulletins.get(j.licence);
      const tr = document.createElement("tr");
      tr.dataset.licence = j.licence;
      let statut = "vide";
      if (attente.has(j.licence)) statut = "attente";
      else if (b && b.decisionCommission) statut = "commission";
      else if (b && b.contreArbitrage) statut = "contre";
      else if (b && b.decision) statut = "corrige";
      else if (b) statut = "depose";
      tr.dataset.etat = statut;
      const cellules = [
        j.table || "", `${j.nom} (${j.licence})`, b ? resume(b.ecrit) : "",
        b ? premier(b) + (b.decisionCommission ? ` ; décision de la commission, en vigueur : ${Decision.texte(b.decisionCommission)}` : "") : "",
        b && b.contreArbitrage ? second(b.contreArbitrage) : "",
        { vide: "—", attente: "en attente d'envoi", depose: "à corriger", corrige: "corrigé", contre: "contre-arbitré", commission: "décidé en commission" }[statut],
      ];
      const boutons = [];
      // §5.5: the engine's decision is shown before it is accepted; an
      // answer read before the top has none, and no button.
      if (statut === "depose" && b.decisionMoteur) boutons.push(["accepter", "Accepter le moteur"]);
      if (statut === "corrige" && b.corrigePar !== moi) boutons.push(["confirmer", "Confirmer"], ["amender", "Amender"]);
      if (b && b.decision && !b.billetRemis) boutons.push(["billet", "Billet remis"]);
      // A row that did not change stays in the DOM untouched: a click on it
      // is never lost to a redraw.
      const cle = JSON.stringify([j.licence, statut, cellules, boutons]);
      const avant = tbody.children[i];
      if (avant && avant.dataset.cle === cle) return;
      tr.dataset.cle = cle;
      for (const v of cellules) {
        const td = document.createElement("td");
        td.textContent = v;
        tr.appendChild(td);
      }
      const actions = document.createElement("td");
      actions.append(...boutons.map(([classe, texte]) => bouton(classe, texte)));
      tr.appendChild(actions);
      if (avant) avant.replaceWith(tr);
      else tbody.append(tr);
    });
    while (tbody.children.length > etat.joueurs.length) tbody.lastElementChild.remove();
    rendreBillets();
  }

  function bouton(classe, texte) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = classe;
    b.textContent = texte;
    return b;
  }

  // premier is the first arbiter's correction: his decision, and the
  // engine's beside it when he departed from it, with his reason.
  function premier(b) {
    const texte = (d) => Decision.texte(d, coup(), b.ecrit);
    if (!b.decisionArbitre) return b.decisionMoteur ? "moteur : " + texte(b.decisionMoteur) : "";
    let t = texte(b.decisionArbitre);
    if (b.motif) t += ` — décidé autrement que le moteur (${texte(b.decisionMoteur)}) : ${b.motif}`;
    return t + (b.corrigePar ? ` [${qui(b.corrigePar)}]` : "");
  }

  function second(c) {
    if (c.confirme) return `confirmé [${qui(c.arbitre)}]`;
    return `amendé : ${Decision.texte(c.decision)} — ${c.motif || ""} [${qui(c.arbitre)}]`;
  }

  // qui names an arbiter: « vous », or his token by the start of its id.
  function qui(arbitre) {
    if (etat.moi && arbitre === "jeton:" + etat.moi.jeton) return "vous";
    return arbitre.replace(/^jeton:(.{8}).*$/, "jeton $1");
  }

  // resume writes a bulletin as typed in one line (the batch contract's JSON).
  const SENS = { h: "(écrit horizontalement)", v: "(écrit verticalement)" };
  const CASES = { missing: "manquant", blank: "vierge", several: "plusieurs bulletins", late: "en retard",
    exchanged: "échangé", illegible: "illisible", hardToRead: "difficile à lire" };
  function resume(ecrit) {
    let b;
    try {
      b = JSON.parse(ecrit);
    } catch (e) {
      return ecrit;
    }
    const parts = (b.solutions || []).map((s) =>
      [s.crossed ? "barré" : "", s.word, s.written ? SENS[s.written] : "", s.ref || "",
        s.score === undefined || s.score === null ? "" : s.score].filter((x) => x !== "").join(" "));
    for (const [k, v] of Object.entries(CASES)) if (b[k]) parts.push(v);
    if (b.discipline) parts.push(`discipline ×${b.discipline}`);
    return parts.join(" ; ");
  }

  // --- typing a bulletin ----------------------------------------------------

  function nouveauBulletin() {
    $("bulletin").reset();
    $("solutions").replaceChildren();
    ajouterSolution();
    $("decision-autre").hidden = true;
    afficherDecision("", "");
    $("joueur-choisi").textContent = "";
    $("joueur").focus();
  }

  function ajouterSolution() {
    $("solutions").append($("modele-solution").content.cloneNode(true));
  }

  // plier removes accents and case for the name completion.
  function plier(s) {
    return s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  // trouverJoueur reads the player field: a licence, a seat (T3, or a table
  // number when one player sits there), or a unique part of a name.
  function trouverJoueur() {
    const v = $("joueur").value.trim();
    if (!v) return { erreur: "" };
    if (etat.parLicence.has(v)) return { joueur: etat.parLicence.get(v) };
    let trouves;
    const t = /^t?\s*(\d+)$/i.exec(v);
    if (t) trouves = etat.joueurs.filter((j) => j.table === +t[1]);
    else trouves = etat.joueurs.filter((j) => plier(j.nom).includes(plier(v)));
    if (trouves.length === 1) return { joueur: trouves[0] };
    if (!trouves.length) return { erreur: `aucun joueur de vos tables pour « ${v} »` };
    return { erreur: `${trouves.length} joueurs : ` + trouves.map((j) => `${j.nom} (${j.licence})`).join(", ") };
  }

  function lireBulletin() {
    const b = { solutions: [] };
    for (const cb of $("cases").querySelectorAll("input[type=checkbox]")) if (cb.checked) b[cb.dataset.champ] = true;
    const discipline = parseInt($("discipline").value, 10);
    if (discipline > 0) b.discipline = discipline;
    for (const ligne of $("solutions").querySelectorAll(".solution")) {
      const mot = ligne.querySelector("[name=mot]").value.trim();
      const ref = ligne.querySelector("[name=ref]").value.trim().toUpperCase();
      const score = ligne.querySelector("[name=score]").value.trim();
      if (!mot && !ref && !score) continue;
      const s = { word: mot };
      if (ref) s.ref = ref;
      const sens = ligne.querySelector("[name=sens]").value;
      if (sens) s.written = sens;
      if (score !== "") s.score = parseInt(score, 10);
      if (ligne.querySelector("[name=barre]").checked) s.crossed = true;
      b.solutions.push(s);
    }
    return b;
  }

  function afficherDecision(texte, sanction, d) {
    $("decision-moteur").textContent = texte;
    $("decision-moteur").dataset.sanction = sanction;
    $("decision-moteur").dataset.paye = d ? String(d.paye) : "";
  }

  const lireApercu = derniere((vars) => session.query(APERCU, vars));
  let apercuMinuteur = null;
  // apercuBientot asks again once typing pauses; until the answer the shown
  // decision is marked stale (data-sanction "calcul"), so nothing — the
  // arbiter's override or a test — takes an older answer for this bulletin.
  // An answer still on its way is for the bulletin as it was: it is dropped
  // when it lands, not shown as this one's.
  function apercuBientot() {
    lireApercu.perimer();
    clearTimeout(apercuMinuteur);
    etat.apercu = null;
    $("decision-moteur").dataset.sanction = "calcul";
    apercuMinuteur = setTimeout(apercu, 120);
  }

  // apercu asks the engine's decision for the bulletin as typed (§5).
  async function apercu() {
    const t0 = performance.now();
    const r = trouverJoueur();
    const deja = r.joueur && (etat.bulletins.has(r.joueur.licence) || enAttente().has(r.joueur.licence));
    $("joueur-choisi").textContent = r.joueur
      ? `Table ${r.joueur.table || "-"} — ${r.joueur.nom} (${r.joueur.licence})${deja ? " — bulletin déjà saisi" : ""}`
      : r.erreur;
    $("joueur-choisi").dataset.licence = r.joueur ? r.joueur.licence : "";
    etat.apercu = null;
    if (!r.joueur) {
      afficherDecision("", "");
      return;
    }
    if (!etat.tops.has(coup())) {
      afficherDecision(`Décision du moteur après l'annonce du top du coup ${coup()}.`, "attente");
      return;
    }
    const vars = { p: partie, c: coup(), l: r.joueur.licence, b: lireBulletin() };
    const avant = performance.now() - t0;
    try {
      const d = await lireApercu(vars);
      if (!d) return;
      const t1 = performance.now();
      etat.apercu = d.apercuBulletin;
      afficherDecision("Moteur : " + Decision.texte(d.apercuBulletin, vars.c, vars.b), d.apercuBulletin.sanction, d.apercuBulletin);
      // Deciding otherwise was ticked before the engine answered: the score
      // paid starts from the engine's, as it would have.
      if ($("autrement").checked && $("autre-paye").value === "") $("autre-paye").value = d.apercuBulletin.paye;
      mesures.apercu.push(avant + performance.now() - t1);
    } catch (e) {
      afficherDecision(e.code ? e.message : "Aperçu indisponible hors connexion : la décision sera prise à l'envoi.", e.code ? "erreur" : "hors-ligne");
    }
  }

  // champsDecision builds the fields of an arbiter's decision (sanction,
  // score paid, boxes, reason) into a fieldset; lireDecision reads them.
  function champsDecision(fieldset, prefixe, legende) {
    const l = document.createElement("legend");
    l.textContent = legende;
    const sanction = document.createElement("select");
    sanction.id = prefixe + "-sanction";
    for (const [code, [nom, article]] of Object.entries(Decision.SANCTIONS)) {
      sanction.append(new Option(article ? `${nom} (${article})` : nom, code));
    }
    const paye = document.createElement("input");
    Object.assign(paye, { id: prefixe + "-paye", type: "number", size: 4 });
    const raisons = document.createElement("select");
    Object.assign(raisons, { id: prefixe + "-raisons", multiple: true, size: 6 });
    for (const code of Object.keys(Decision.RAISONS)) raisons.append(new Option(Decision.raison(code), code));
    // « Sans sanction » ticks no box of the billet: the boxes the engine's
    // decision had are cleared with it.
    sanction.addEventListener("change", () => {
      if (sanction.value === "none") for (const o of raisons.options) o.selected = false;
    });
    const motif = document.createElement("input");
    Object.assign(motif, { id: prefixe + "-motif", size: 40, placeholder: "motif (obligatoire)" });
    const etiquette = (texte, champ) => {
      const lab = document.createElement("label");
      lab.append(texte + " ", champ);
      return lab;
    };
    fieldset.replaceChildren(l, etiquette("Sanction", sanction), etiquette("Score payé", paye), etiquette("Cases", raisons), etiquette("Motif", motif));
  }

  function remplirDecision(prefixe, d) {
    $(prefixe + "-sanction").value = d ? d.sanction : "none";
    $(prefixe + "-paye").value = d ? d.paye : "";
    for (const o of $(prefixe + "-raisons").options) o.selected = !!d && d.raisons.includes(o.value);
    $(prefixe + "-motif").value = "";
  }

  function lireDecision(prefixe) {
    const raisons = Array.from($(prefixe + "-raisons").selectedOptions, (o) => o.value);
    return {
      d: { paye: parseInt($(prefixe + "-paye").value, 10) || 0, sanction: $(prefixe + "-sanction").value, raisons },
      m: $(prefixe + "-motif").value.trim(),
    };
  }

  champsDecision($("decision-autre"), "autre", "Décision de l'arbitre");
  champsDecision($("decision-amendee"), "amende", "Décision du second arbitre");

  // valider queues the bulletin and, once the top is known, its correction:
  // the engine's decision accepted, or the arbiter's with his reason.
  function valider(ev) {
    ev.preventDefault();
    const t0 = performance.now();
    const r = trouverJoueur();
    if (!r.joueur) {
      message(r.erreur || "Choisissez le joueur.");
      return;
    }
    const c = coup();
    if (etat.bulletins.has(r.joueur.licence) || enAttente().has(r.joueur.licence)) {
      message(`Le bulletin de ${r.joueur.nom} au coup ${c} est déjà saisi : corrigez-le depuis la liste.`);
      return;
    }
    const entrees = [{ query: DEPOSER, variables: { p: partie, c, l: r.joueur.licence, b: lireBulletin() } }];
    if (etat.tops.has(c)) {
      const v = { p: partie, c, l: r.joueur.licence };
      if ($("autrement").checked) {
        const { d, m } = lireDecision("autre");
        if (!m) {
          message("Décider autrement que le moteur demande un motif.");
          $("autre-motif").focus();
          return;
        }
        Object.assign(v, { d, m });
      }
      entrees.push({ query: CORRIGER, variables: v });
    }
    envoyer(entrees, r.joueur);
    nouveauBulletin();
    mesures.saisie.push(performance.now() - t0);
  }

  // envoyer queues entries for a player as one group (one waiting item).
  function envoyer(entrees, joueur) {
    const groupe = cleAction("g");
    for (const e of entrees) Object.assign(e, { groupe, nom: joueur.nom });
    message("");
    etat.envoi = { groupe, nom: joueur.nom };
    etat.file.ajouter(entrees);
  }

  // direEnvoi says where the last group queued stands, as the queue moves:
  // waiting, then sent (a refusal is listed under the bulletins and ends it).
  function direEnvoi() {
    if (!etat.envoi) return;
    const attend = etat.file.entrees.some((e) => e.groupe === etat.envoi.groupe);
    $("message").textContent = `${etat.envoi.nom} : ${attend ? "enregistré, en attente d'envoi" : "envoyé"}.`;
  }

  function refuse(e, err) {
    if (etat.envoi && etat.envoi.groupe === e.groupe) message("");
    const li = document.createElement("li");
    li.dataset.licence = e.variables.l;
    li.textContent = `${e.nom} (coup ${e.variables.c}) : refusé — ${err.message}` + (err.code ? ` (${err.code})` : "");
    $("refus").append(li);
    rafraichirBientot();
  }

  // message says t under the form, instead of where the last group stands.
  function message(t) {
    etat.envoi = null;
    $("message").textContent = t;
  }

  function alerte(t) {
    $("etat").textContent = t;
    $("etat").classList.add("hors-ligne");
  }

  // --- double arbitrage and acceptance from the list ------------------------

  let amende = null;
  $("bulletins").addEventListener("click", (ev) => {
    const b = ev.target.closest("button");
    const tr = ev.target.closest("tr");
    if (!b || !tr) return;
    const j = etat.parLicence.get(tr.dataset.licence);
    const v = { p: partie, c: coup(), l: j.licence };
    if (b.classList.contains("accepter")) envoyer([{ query: CORRIGER, variables: v }], j);
    if (b.classList.contains("confirmer")) envoyer([{ query: CONTRE, variables: Object.assign(v, { ok: true }) }], j);
    if (b.classList.contains("billet")) envoyer([{ query: BILLET, variables: v }], j);
    if (b.classList.contains("amender")) {
      amende = v;
      $("amendement-titre").textContent = `Amender la décision de ${j.nom} (${j.licence}), coup ${v.c}`;
      remplirDecision("amende", etat.bulletins.get(j.licence).decision);
      $("amendement").show();
    }
  });
  $("amender").addEventListener("submit", (ev) => {
    if (ev.submitter && ev.submitter.value !== "envoyer") return;
    const { d, m } = lireDecision("amende");
    if (!m) {
      ev.preventDefault();
      $("amende-motif").focus();
      return;
    }
    envoyer([{ query: CONTRE, variables: Object.assign(amende, { ok: false, d, m }) }], etat.parLicence.get(amende.l));
  });

  // --- billets de correction (guide §5.2), printed on A4 ------------------------

  // rendreBillets builds the coup's billets de correction, or, « des
  // sanctions seulement » ticked, those of the bulletins sanctioned (as
  // DupliTop prints them): a good bulletin needs none.
  function rendreBillets() {
    const c = coup();
    const seules = $("sanctions-seules").checked;
    const billets = etat.joueurs.filter((j) => {
      const b = etat.bulletins.get(j.licence);
      return b && b.decision && (!seules || b.decision.sanction !== "none");
    }).map((j) => {
      const b = etat.bulletins.get(j.licence);
      const d = b.decision;
      const div = document.createElement("div");
      div.className = "billet";
      div.dataset.licence = j.licence;
      const [nom, article] = Decision.SANCTIONS[d.sanction] || [d.sanction, ""];
      const lignes = [
        ["h3", `Billet de correction — partie ${partie}, coup ${c}, table ${j.table || "-"}`],
        ["p", `${j.nom} — licence ${j.licence}`],
        ["p", `Bulletin : ${resume(b.ecrit) || "—"}`],
        ...Decision.cases(d.raisons).map((r) => ["p", "☒ " + r]),
        ["p", `Sanction : ${nom}${article ? " (" + article + ")" : ""}`],
        ["p", `Score payé : ${Decision.paye(d, c, b.ecrit)}${d.scoreRenvoye != null ? ` (score renvoyé : ${d.scoreRenvoye})` : ""}`],
      ];
      if (b.contreArbitrage) lignes.push(["p", "Double arbitrage : " + (b.contreArbitrage.confirme ? "confirmé" : "amendé")]);
      for (const [tag, texte] of lignes) {
        const e = document.createElement(tag);
        e.textContent = texte;
        div.append(e);
      }
      return div;
    });
    $("billets").replaceChildren(...billets);
  }

  // --- events -------------------------------------------------------------------

  $("bulletin").addEventListener("submit", valider);
  // The sense the word is written in (§5.3, guide boxes (9) and (27)):
  // one key, h or v; left empty it is the reference's, shown as the
  // field's placeholder (H4 across, 4H down).
  $("solutions").addEventListener("input", (ev) => {
    const ligne = ev.target.closest(".solution");
    if (!ligne) return;
    const sens = ligne.querySelector("[name=sens]");
    if (ev.target === sens) sens.value = sens.value.toLowerCase().replace(/[^hv]/g, "").slice(-1);
    if (ev.target.name === "ref") sens.placeholder = /^\s*\d/.test(ev.target.value) ? "v" : "h";
  });
  $("bulletin").addEventListener("input", (ev) => {
    // Deciding otherwise changes the arbiter's decision, not the bulletin.
    if (!ev.target.closest("#decision-autre") && ev.target.id !== "autrement") apercuBientot();
  });
  $("ajouter-solution").addEventListener("click", ajouterSolution);
  $("autrement").addEventListener("change", () => {
    $("decision-autre").hidden = !$("autrement").checked;
    if ($("autrement").checked) remplirDecision("autre", etat.apercu);
  });
  $("coup").addEventListener("change", () => {
    etat.coupChoisi = true;
    afficherTop();
    apercuBientot();
    rafraichir();
  });
  $("sanctions-seules").addEventListener("change", rendreBillets);
  $("imprimer").addEventListener("click", () => {
    rendreBillets();
    window.print();
  });
