// The director's console of a duplicate game, /directeur/partie/<partie>:
// everything the juge-arbitre does, in the regulation's order — the tirage
// (software, letters typed from the bag, or the line of a pre-drawn sheet:
// §3.1, §3.2, guide §2.17), the rejet (§3.2), the chrono (§1.3, §3.3), the
// engine's solutions and the top announced in one action (§3.4), the
// ramassage with the bulletins' progress per table, the annulled coup (§3.6),
// the interruption (§3.7), the late player (§6.2) and his withdrawal when
// added by mistake, the eliminations (§3.8.3, guide §2.14) and their
// undoing, the end (§3.7) and the closing of the results, once the arbiters
// have typed and corrected the last bulletins; a pre-drawn game's whole
// sheet pasted once (guide §2.17); the standings as the director sees them,
// solos included (§3.5). The state comes from the coupAnnonce subscription,
// so every screen agrees, the standings from classementChange; every action
// that cannot be undone asks for confirmation (actions.js), and the ones a
// director may regret say why first (time left, bulletins still awaited).
import { cleAction, confirmer, message } from "./actions.js";
import { Chrono } from "./chrono.js";
import { derniere, lexiqueTexte, ligne, sourceTirage } from "./gql.js";
import { Session } from "./session.js";
import { CHAMPS_TIRAGE, montrerTirage, rejetTexte } from "./tirage.js";

  const $ = (id) => document.getElementById(id);
  const partie = decodeURIComponent(location.pathname.replace(/^\/directeur\/partie\/?/, "").split("/")[0] || "");
  const PARTIE = `id tournoi numero lexique statut version coup tirage ${CHAMPS_TIRAGE} config { tempsParCoupSecondes source graineTest mode }
    tops { coup mot reference score } fin { motif dernierCoup annulee vainqueur resultatsClos } ${Chrono.CHAMPS}`;
  const STATUTS = {
    attente_tirage: "en attente du tirage", tirage: "coup en cours", top: "top annoncé",
    interrompue: "partie interrompue", terminee: "partie terminée",
  };
  const chrono = new Chrono($("chrono"));
  let p = null;
  let solutions = [];
  let solutionsDe = ""; // the tirage whose solutions are shown or being read
  let live = null;
  let feuilleChargee = false; // the sheet this page loaded (guide §2.17)

  const session = new Session("Jeton du directeur", demarrer, ["DIRECTOR"]);

  async function demarrer() {
    $("contenu").hidden = false;
    $("titre").textContent = "Partie " + partie;
    $("affichage").href = "/affichage/" + encodeURIComponent(partie);
    $("scores").href = "/scores/" + encodeURIComponent(partie);
    try {
      const d = await session.query(`query($p: ID!) { partie(id: $p) { ${PARTIE} } }`, { p: partie });
      if (!d.partie) {
        message(`La partie ${partie} n'existe pas.`, true);
        return;
      }
      await montrer(d.partie);
    } catch (e) {
      message(e.message, true);
      return;
    }
    if (!live) {
      live = session.live((enDirect) => { $("etat").textContent = enDirect ? "en direct" : "reconnexion…"; });
      live.subscribe(`subscription($p: ID!) { coupAnnonce(partie: $p) { ${PARTIE} } }`, { p: partie },
        (d) => montrer(d.coupAnnonce).catch((e) => message(e.message, true)), (e) => message(e.message, true));
      // The public standings' changes say when to read the director's.
      live.subscribe(`subscription($p: ID!) { classementChange(partie: $p) { licence } }`, { p: partie },
        () => chargerClassement().catch((e) => message(e.message, true)), (e) => message(e.message, true));
    }
  }

  // coupCourant is the coup whose bulletins are being handed in: the one
  // being played, else the last topped.
  function coupCourant() {
    return p.statut === "tirage" ? p.coup : p.coup - 1;
  }

  async function montrer(vue) {
    if (p && vue.version < p.version) return; // an older answer arrived late
    p = vue;
    chrono.recevoir(p.chrono);
    document.body.dataset.statut = p.statut;
    document.body.dataset.version = String(p.version);
    document.body.dataset.coup = String(p.coup);
    $("coup").textContent = p.fin ? "Partie terminée" : "Coup " + p.coup;
    $("statut").textContent = STATUTS[p.statut] || p.statut;
    $("tirage").textContent = p.statut === "tirage" ? "Tirage complet : " + p.tirage : "";
    montrerTirage($("annonce-tirage"), p.reliquat, p.nouvelles);
    $("rejets").replaceChildren(...p.rejets.map((r) => {
      const li = document.createElement("li");
      li.textContent = rejetTexte(r);
      li.dataset.motif = r.motif;
      return li;
    }));
    $("source-tirage").textContent = sourceTirage(p.config);
    $("lexique").textContent = lexiqueTexte(p.lexique);
    $("saisie-lettres").hidden = p.config.source !== "directeur";
    $("saisie-feuille").hidden = p.config.source !== "pretiree";
    $("bloc-feuille").hidden = p.config.source !== "pretiree" || feuilleChargee || p.statut !== "attente_tirage" || p.coup !== 1;
    $("bloc-eliminer").hidden = p.config.mode === "normal";
    $("tops").replaceChildren(...p.tops.map((t) => ligne([[t.coup, true], [t.mot, false], [t.reference, false], [t.score, true]])));
    $("fin").textContent = p.fin ? finTexte(p.fin) : "La partie se termine d'elle-même quand les lettres restantes le veulent (§3.7).";
    $("bloc-cloture").hidden = !p.fin;
    document.body.dataset.resultatsClos = String(Boolean(p.fin && p.fin.resultatsClos));
    $("cloture").textContent = !p.fin ? "" : p.fin.resultatsClos ? "Résultats clos : le classement est définitif."
      : "Les arbitres saisissent et corrigent encore les bulletins, ceux du dernier coup compris ; le classement reste provisoire jusqu'à la clôture des résultats.";
    boutons();
    await Promise.all([chargerSolutions(), chargerAvancement(), chargerClassement()]);
  }

  // chargerClassement shows the game's standings as the director sees
  // them: the solos and their bonus as soon as they are scored (§3.5).
  const lireClassement = derniere(() => session.query(`query($p: ID!) { classementDirecteur(partie: $p) { rang licence nom score solos enAttente provisoire } }`, { p: partie }));
  async function chargerClassement() {
    const d = await lireClassement();
    if (!d) return;
    const lignes = d.classementDirecteur;
    $("classement-directeur").replaceChildren(...lignes.map((l) => {
      const tr = ligne([[l.rang, true], [l.nom, false], [l.licence, false], [l.score, true], [l.solos, true], [l.enAttente, true]]);
      tr.dataset.licence = l.licence;
      return tr;
    }));
    $("classement-provisoire").hidden = !lignes.some((l) => l.provisoire);
  }

  function finTexte(f) {
    const motifs = {
      toutes_lettres_placees: "toutes les lettres sont placées", une_seule_lettre: "il ne reste qu'une lettre",
      reliquat_voyelles: "il ne reste que des voyelles", reliquat_consonnes: "il ne reste que des consonnes",
      plus_de_placement: "plus aucun placement possible", tirage_different_impossible: "plus de tirage différent possible",
      interruption: "interruption de plus de 15 minutes", vainqueur: "un seul joueur reste en lice",
    };
    let t = `Partie terminée (§3.7) : ${motifs[f.motif] || f.motif} ; résultats arrêtés au coup ${f.dernierCoup}.`;
    if (f.annulee) t += " La partie est annulée.";
    if (f.vainqueur) t += ` Vainqueur : ${f.vainqueur}.`;
    return t;
  }

  // boutons enables the actions the game's state allows.
  function boutons() {
    const s = p.statut, c = p.chrono.etat;
    const entreCoups = s === "attente_tirage" || s === "top";
    $("tirer").disabled = !entreCoups;
    $("rejeter").disabled = s !== "tirage";
    $("chrono-demarrer").disabled = s !== "tirage" || c !== "arrete";
    $("chrono-pause").disabled = s !== "tirage" || c !== "en_cours";
    $("chrono-reprendre").disabled = s !== "tirage" || c !== "en_pause";
    $("ramasser").disabled = !(s === "tirage" || s === "top");
    $("annuler-coup").disabled = !(s === "tirage" || s === "top");
    $("interrompre").disabled = s === "interrompue" || s === "terminee";
    $("reprendre").disabled = s !== "interrompue";
    $("retard").disabled = s === "interrompue" || s === "terminee";
    $("retirer").disabled = Boolean(p.fin && p.fin.resultatsClos);
    $("eliminer").disabled = s !== "top";
    $("annuler-eliminations").disabled = !(s === "top" || (p.fin && p.fin.motif === "vainqueur" && !p.fin.resultatsClos));
    $("clore").disabled = !p.fin || p.fin.resultatsClos;
  }

  async function chargerSolutions() {
    const tbody = $("solutions");
    if (p.statut !== "tirage") {
      solutions = [];
      solutionsDe = "";
      tbody.replaceChildren();
      tbody.dataset.coup = "";
      return;
    }
    // The solutions of a tirage never change: read once per tirage.
    const cle = p.coup + ":" + p.tirage;
    if (solutionsDe === cle) return;
    solutionsDe = cle;
    let d;
    try {
      d = await session.query(`query($p: ID!) { partie(id: $p) { solutions { mot reference score avecJoker finDePartie admissible } } }`, { p: partie });
    } catch (e) {
      solutionsDe = "";
      throw e;
    }
    if (solutionsDe !== cle) return; // the game moved on meanwhile
    solutions = (d.partie.solutions || []).slice().sort(ordreSolutions);
    const finit = solutions.some((s) => s.admissible && s.finDePartie);
    // One row per word, its other places on demand (a word often tops at
    // several places: across and down through the star on coup 1).
    const groupes = new Map();
    for (const s of solutions) {
      const cle = (s.admissible ? "1" : "0") + s.mot;
      if (!groupes.has(cle)) groupes.set(cle, []);
      groupes.get(cle).push(s);
    }
    const lignes = [];
    for (const [cle, g] of groupes) {
      g.forEach((s, i) => {
        const tr = ligneSolution(s, finit);
        tr.dataset.groupe = cle;
        if (i > 0) {
          tr.classList.add("autre-place");
          tr.hidden = true;
        } else if (g.length > 1) {
          const b = document.createElement("button");
          b.type = "button";
          b.className = "places";
          b.textContent = `+ ${g.length - 1} autre(s) place(s)`;
          b.setAttribute("aria-expanded", "false");
          b.addEventListener("click", () => {
            const ouvert = b.getAttribute("aria-expanded") !== "true";
            b.setAttribute("aria-expanded", String(ouvert));
            b.textContent = ouvert ? "masquer les autres places" : `+ ${g.length - 1} autre(s) place(s)`;
            for (const autre of tbody.querySelectorAll("tr.autre-place")) if (autre.dataset.groupe === cle) autre.hidden = !ouvert;
          });
          tr.cells[1].append(" ", b);
        }
        lignes.push(tr);
      });
    }
    tbody.replaceChildren(...lignes);
    tbody.dataset.coup = String(p.coup);
  }

  // ordreSolutions sorts the tops the director may retain first (§3.4), then
  // by score, word and reference, numbers as numbers (H4 before H12).
  function ordreSolutions(a, b) {
    return (b.admissible - a.admissible) || (b.score - a.score) ||
      a.mot.toUpperCase().localeCompare(b.mot.toUpperCase(), "fr") || a.mot.localeCompare(b.mot) ||
      a.reference.localeCompare(b.reference, "fr", { numeric: true });
  }

  function ligneSolution(s, finit) {
    const tr = ligne([[s.mot, false], [s.reference, false], [s.score, true], [s.admissible ? "oui" : raison(s, finit), false]]);
    tr.dataset.mot = s.mot;
    tr.dataset.reference = s.reference;
    tr.dataset.admissible = String(s.admissible);
    if (!s.admissible) tr.classList.add("inadmissible");
    const td = document.createElement("td");
    if (s.admissible) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "annoncer";
      b.textContent = "Annoncer";
      b.addEventListener("click", () => annoncer(s));
      td.appendChild(b);
    }
    tr.appendChild(td);
    return tr;
  }

  // raison says why the director may not retain a top (§3.4).
  function raison(s, finit) {
    if (finit && !s.finDePartie) return "non : un top de même score termine la partie (§3.4, §3.7)";
    if (s.avecJoker) return "non : un top de même score garde le joker ou le fait revenir (§3.4, §3.8.1)";
    return "non (§3.4)";
  }

  const lireAvancement = derniere((coup) => session.query(`query($p: ID!, $c: Int!) { avancementBulletins(partie: $p, coup: $c) {
      table joueurs saisis corriges manquants renvoyes } }`, { p: partie, c: coup }));
  async function chargerAvancement() {
    const coup = coupCourant();
    $("avancement-coup").textContent = coup >= 1 ? String(coup) : "—";
    if (coup < 1) {
      $("avancement").replaceChildren();
      return;
    }
    const d = await lireAvancement(coup);
    if (!d) return;
    $("avancement").replaceChildren(...d.avancementBulletins.map((t) => {
      const tr = ligne([[t.table || "sans table", true], [t.joueurs, true], [t.saisis, true], [t.corriges, true],
        [t.manquants, true], [t.renvoyes, true]]);
      tr.dataset.table = String(t.table);
      tr.dataset.manquants = String(t.manquants);
      return tr;
    }));
  }

  // agir runs a mutation answering with the game, after confirmation when a
  // question is given; the answer is shown at once. succes is the message,
  // or a function of the game answered giving it.
  async function agir(champ, args, question, succes) {
    if (question && !(await confirmer(question))) return;
    const decl = Object.keys(args).map((k) => `, $${k}: ${args[k][1]}`).join("");
    const appel = Object.keys(args).map((k) => `, ${k}: $${k}`).join("");
    const vars = { p: partie, c: cleAction() };
    for (const k of Object.keys(args)) vars[k] = args[k][0];
    try {
      const d = await session.query(`mutation($p: ID!, $c: String${decl}) { ${champ}(partie: $p, clientMutationId: $c${appel}) { ${PARTIE} } }`, vars);
      message(typeof succes === "function" ? succes(d[champ]) : succes);
      await montrer(d[champ]);
    } catch (e) {
      message(e.message, true);
    }
  }

  // lettresTirees reads the letters to send for a typed tirage.
  function lettresTirees() {
    if (p.config.source === "directeur") return $("lettres").value.trim().toUpperCase();
    if (p.config.source !== "pretiree") return "";
    const ligne = $("ligne-feuille").value.trim().toUpperCase();
    const m = /^\s*\d*\s*[A-Z?]*\+([A-Z?]*)/.exec(ligne);
    return m ? m[1] : ligne.replace(/^\d+\s+/, "").split(/\s+/)[0];
  }

  // tirageTexte says what a tirer did: a tirage kept, after the software's
  // rejets if any, or the typed tirage rejected (§3.2), to draw again.
  function tirageTexte(q) {
    const rejets = q.rejets.map(rejetTexte).join(" ; ");
    if (q.statut === "attente_tirage" && q.rejets.length) {
      return `Tirage rejeté : ${rejets}. Toutes les lettres retournent au sac : tirer à nouveau.`;
    }
    if (q.rejets.length) return `Tirage effectué après ${q.rejets.length} rejet(s) — ${rejets}.`;
    return "Tirage effectué.";
  }

  // enAttente lists the bulletins the results still wait for: not entered
  // or not corrected, of the coups topped.
  async function enAttente() {
    const d = await session.query(`query($p: ID!) { bulletinsEnAttente(partie: $p) { coup licence nom table } }`, { p: partie });
    return d.bulletinsEnAttente;
  }

  // enAttenteTexte says which bulletins are awaited, coup by coup and table
  // by table: « 2 bulletin(s) manquant(s) ou non corrigé(s) — coup 1 : 1 à
  // la table 2 (Joueur 2, L2), 1 à la table 3 (Joueur 3, L3) ».
  function enAttenteTexte(liste) {
    const coups = new Map();
    for (const b of liste) {
      if (!coups.has(b.coup)) coups.set(b.coup, new Map());
      const tables = coups.get(b.coup);
      if (!tables.has(b.table)) tables.set(b.table, []);
      tables.get(b.table).push(b.nom ? `${b.nom}, ${b.licence}` : b.licence);
    }
    const parCoup = [...coups].map(([coup, tables]) => `coup ${coup} : ` + [...tables].map(([table, joueurs]) =>
      `${joueurs.length} ${table ? "à la table " + table : "sans table"} (${joueurs.join(" ; ")})`).join(", "));
    return `${liste.length} bulletin(s) manquant(s) ou non corrigé(s) — ${parCoup.join(" ; ")}`;
  }

  // tirer draws the next coup; while bulletins of the coups played are
  // still awaited (not entered or not corrected), the director is told
  // which, table by table, and asked first.
  async function tirer() {
    if ($("tirer").disabled) return;
    const lettres = lettresTirees();
    let question = null;
    try {
      const liste = await enAttente();
      if (liste.length) question = `${enAttenteTexte(liste)}. Tirer quand même le coup ${p.coup} ?`;
    } catch (e) {
      return message(e.message, true);
    }
    await agir("tirer", lettres ? { lettres: [lettres, "String"] } : {}, question, tirageTexte);
    $("lettres").value = "";
    $("ligne-feuille").value = "";
  }

  function basculerChrono() {
    const c = p && p.chrono.etat;
    if (!$("chrono-demarrer").disabled && c === "arrete") return agir("demarrerChrono", {}, null, "Chrono lancé.");
    if (!$("chrono-pause").disabled) return agir("suspendreChrono", {}, null, "Chrono en pause.");
    if (!$("chrono-reprendre").disabled) return agir("reprendreChrono", {}, null, "Chrono repris.");
  }

  function annoncer(s) {
    return agir("retenirTop", { reference: [s.reference, "String!"], mot: [s.mot, "String!"] },
      `Annoncer le top ${s.mot} en ${s.reference} (${s.score} points) ?`, `Top annoncé : ${s.mot} en ${s.reference}, ${s.score} points.`);
  }

  // ramasser collects the coup's bulletins; before the time is over, it says
  // the chrono was never started or how much time is left (§3.3).
  function ramasser() {
    if ($("ramasser").disabled) return;
    const c = p.statut === "tirage" ? chrono.lire() : null;
    let avant = "";
    if (c && c.etat === "arrete") avant = `Le chrono du coup ${p.coup} n'a pas été lancé. `;
    else if (c && (c.etat === "en_cours" || c.etat === "en_pause") && c.restantMs > 0) {
      avant = `Il reste ${dureeTexte(c.restantMs)} au chrono${c.etat === "en_pause" ? " (en pause)" : ""}. `;
    }
    return agir("ramasser", {}, `${avant}Ramasser les bulletins du coup ${coupCourant()} ?`, "Bulletins ramassés.");
  }

  // dureeTexte says a time left as a person does: « 6 s », « 1 min 05 s ».
  function dureeTexte(ms) {
    const s = Math.ceil(ms / 1000);
    return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  }

  $("tirer").addEventListener("click", tirer);
  $("rejeter").addEventListener("click", () => agir("rejeter", {}, `Rejeter le tirage ${p.tirage} ? Toutes les lettres retournent au sac (§3.2).`, "Tirage rejeté."));
  $("chrono-demarrer").addEventListener("click", () => agir("demarrerChrono", {}, null, "Chrono lancé."));
  $("chrono-pause").addEventListener("click", () => agir("suspendreChrono", {}, null, "Chrono en pause."));
  $("chrono-reprendre").addEventListener("click", () => agir("reprendreChrono", {}, null, "Chrono repris."));
  $("ramasser").addEventListener("click", ramasser);
  $("annuler-coup").addEventListener("click", () => {
    const motif = $("motif-annulation").value;
    return agir("annulerCoup", { motif: [motif, "MotifAnnulation!"] },
      `Annuler le coup ${coupCourant()} (${motif}) ? Ses points et ses lettres sont annulés (§3.6).`, "Coup annulé.");
  });
  $("interrompre").addEventListener("click", () => agir("interrompre", {}, "Interrompre la partie (§3.7) ?", "Partie interrompue."));
  $("reprendre").addEventListener("click", () => agir("reprendre", {}, "Reprendre la partie ? Au-delà de 15 minutes d'interruption, elle s'arrête (§3.7).", "Partie reprise."));
  // joueurNomme names a player of the game's tournament, « Joueur 9 (L9,
  // table 9) », read in its registrations; null for a licence it does not
  // know or a registration it could not read, said in the message.
  async function joueurNomme(l) {
    let d;
    try {
      d = await session.query(`query($t: ID!) { tournoi(id: $t) { joueurs { licence nom table } } }`, { t: p.tournoi });
    } catch (e) {
      message(e.message, true);
      return null;
    }
    const j = ((d.tournoi && d.tournoi.joueurs) || []).find((x) => x.licence === l);
    if (!j) {
      message(`La licence ${l} n'est pas inscrite au tournoi ${p.tournoi} : inscrivez d'abord le joueur, puis ajoutez-le à la partie.`, true);
      return null;
    }
    return `${j.nom} (${l}, ${j.table ? "table " + j.table : "sans table"})`;
  }

  // A late player (§6.2) is named before the confirmation: who, at which
  // table; a licence the tournament does not know is refused at once.
  $("retard").addEventListener("click", async () => {
    const l = $("retard-licence").value.trim();
    if (!l) return message("Saisir la licence du joueur en retard.", true);
    const qui = await joueurNomme(l);
    if (!qui) return;
    return agir("arriveeEnRetard", { licence: [l, "ID!"] }, `Ajouter ${qui} en retard ? Les coups déjà tirés lui comptent zéro (§6.2).`, `${qui} ajouté à la partie.`);
  });

  // A player added late by mistake is withdrawn, named, with the reason.
  $("retirer").addEventListener("click", async () => {
    const l = $("retrait-licence").value.trim();
    const motif = $("retrait-motif").value.trim();
    if (!l || !motif) return message("Saisir la licence du joueur ajouté par erreur et le motif du retrait.", true);
    const qui = await joueurNomme(l);
    if (!qui) return;
    return agir("retirerJoueur", { licence: [l, "ID!"], motif: [motif, "String!"] },
      `Retirer ${qui} de la partie (${motif}) ? Il y avait été ajouté en retard ; le retrait et son motif restent dans l'historique.`,
      `${qui} retiré de la partie.`);
  });
  $("eliminer").addEventListener("click", () => agir("eliminer", {}, `Décider les éliminations du coup ${coupCourant()} (§3.8.3) ?`, "Éliminations décidées."));
  $("annuler-eliminations").addEventListener("click", () => {
    const motif = $("motif-eliminations").value.trim();
    if (!motif) return message("Saisir le motif de l'annulation des éliminations.", true);
    return agir("annulerEliminations", { motif: [motif, "String!"] },
      `Annuler les éliminations du coup ${coupCourant()} (${motif}) ? Les joueurs éliminés reprennent la partie (§3.8.3).`, "Éliminations annulées.");
  });
  $("charger-feuille").addEventListener("click", () => {
    const feuille = $("feuille").value;
    if (!feuille.trim()) return message("Coller la feuille prétirée.", true);
    return agir("chargerFeuillePretiree", { feuille: [feuille, "String!"] },
      "Charger la feuille prétirée ? Elle est vérifiée en entier et ne se charge qu'une fois : chaque « Tirer » prendra la ligne du coup (guide §2.17).",
      () => {
        feuilleChargee = true;
        $("feuille").value = "";
        return "Feuille prétirée chargée : chaque « Tirer » prend la ligne du coup.";
      });
  });
  // Closing the results names the bulletins still awaited, if any: each
  // then counts as a missing bulletin, a zéro (§5.7).
  $("clore").addEventListener("click", async () => {
    let liste;
    try {
      liste = await enAttente();
    } catch (e) {
      return message(e.message, true);
    }
    if (!liste.length) return agir("cloreResultats", {}, "Clore les résultats ? Plus aucune saisie ni correction de bulletin.", "Résultats clos.");
    return agir("cloreResultats", { confirmerManquants: [true, "Boolean"] },
      `${enAttenteTexte(liste)}. Clore les résultats quand même ? Chacun compte comme bulletin manquant, un zéro (§5.7) ; plus aucune saisie ni correction.`,
      "Résultats clos.");
  });

  // Keyboard shortcuts, outside of a field and of the confirmation dialog.
  document.addEventListener("keydown", (ev) => {
    if (!p || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target.closest && ev.target.closest("input, textarea, select, dialog")) return;
    const d = $("confirmation");
    if (d && d.open) return;
    const k = ev.key.toLowerCase();
    const action = {
      t: tirer, c: basculerChrono, r: ramasser,
      a: () => { const s = solutions.find((x) => x.admissible); if (s && p.statut === "tirage") annoncer(s); },
    }[k];
    if (!action) return;
    ev.preventDefault();
    action();
  });
