// The commission's replay viewer: a coup reproduced from events only —
// grid, tirage, reliquat, the engine's top candidates, the retained top,
// each bulletin as written beside the decision recorded and the decision the
// engine gives now (differences highlighted), and who did what and when.
// Below it, the game's appeals (appels.js): « Faire appel » on a bulletin
// opens the filing form, and each appeal links back to its coup here.
import { lignesActes } from "./actes.js";
import { appelsDuTournoi } from "./appels-tournoi.js";
import { Appels } from "./appels.js";
import { Decision } from "./decision.js";
import { param, sourceTirage } from "./gql.js";
import { drawBoard } from "./plateau.js";
import { Session } from "./session.js";

(function () {
  const partie = decodeURIComponent(location.pathname.replace(/^\/commission\/?/, "").split("/")[0] || "");
  // Without a game, the page lists the tournament's appeals (appels-tournoi.js).
  if (!partie) {
    appelsDuTournoi();
    return;
  }
  let coup = parseInt(param("coup") || "1", 10);
  // adresse is this page at the coup shown and the appeal open. The token
  // never travels in an address (session.js): an address carrying one
  // loses it.
  function adresse() {
    const q = new URLSearchParams({ coup });
    const appel = param("appel");
    if (appel) q.set("appel", appel);
    return `${location.pathname}?${q}`;
  }
  history.replaceState(null, "", adresse());

  const D = "paye sanction raisons place scoreRenvoye commission";
  const REPLAY = `query($p: ID!, $c: Int!) { partie(id: $p) { tournoi config { source graineTest } } replay(partie: $p, coup: $c) {
    coup dernierCoup lexique grille tirage reliquat sac
    top { mot reference score cases }
    solutions { mot reference score avecJoker admissible }
    bulletins { licence table ecrit enregistree { decision { ${D} } } moteur { decision { ${D} } } ecart differences }
    journal { quand type acteur role qui } } }`;

  function cellules(tr, valeurs) {
    for (const v of valeurs) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    return tr;
  }

  function remplir(id, lignes) {
    document.getElementById(id).replaceChildren(...lignes);
  }

  // avecTop puts the retained top's letters on the grid before the coup, so
  // the board shows the word where it goes (jokers stay in lower case).
  function avecTop(grille, top) {
    if (!top) return grille;
    const rangees = grille.map((r) => r.split(""));
    top.cases.forEach((c, i) => {
      const r = "ABCDEFGHIJKLMNO".indexOf(c[0]);
      const col = parseInt(c.slice(1), 10) - 1;
      if (rangees[r] && rangees[r][col] === "." && top.mot[i]) rangees[r][col] = top.mot[i];
    });
    return rangees.map((r) => r.join(""));
  }

  // bulletin shows a bulletin as the player wrote it: each solution with its
  // reference and score (crossed-out ones struck through), and the boxes
  // ticked by the arbiter. The raw JSON stays in the cell's tooltip.
  const CASES = { missing: "absent", blank: "blanc", several: "plusieurs solutions", late: "en retard",
    exchanged: "échangé", illegible: "illisible" };
  function bulletin(ecrit) {
    const td = document.createElement("td");
    td.title = ecrit;
    let b;
    try {
      b = JSON.parse(ecrit);
    } catch (e) {
      td.textContent = ecrit;
      return td;
    }
    const parts = [];
    for (const k in CASES) if (b[k]) parts.push(CASES[k]);
    if (b.discipline) parts.push(`discipline ${b.discipline}`);
    if (parts.length) {
      const em = document.createElement("em");
      em.textContent = parts.join(", ");
      td.append(em);
    }
    for (const sol of b.solutions || []) {
      const span = document.createElement(sol.crossed ? "s" : "span");
      span.className = "ecrit";
      span.textContent = [sol.word, sol.ref || "(sans réf.)", sol.score != null ? sol.score + " pts" : ""].join(" ").trim();
      if (td.childNodes.length) td.append(" ");
      td.append(span);
    }
    return td;
  }

  // Players are named by name and licence, from the tournament's
  // registrations, read once.
  let noms = null;
  async function nommer(tournoi) {
    if (noms || !tournoi) return;
    const t = await session.query(`query($t: ID!) { tournoi(id: $t) { joueurs { licence nom } } }`, { t: tournoi });
    noms = new Map(((t.tournoi && t.tournoi.joueurs) || []).map((j) => [j.licence, j.nom]));
  }
  const joueur = (licence) => (noms && noms.get(licence) ? `${noms.get(licence)} (${licence})` : licence);

  // difference says in French where the engine today departs from the
  // decision recorded: « score payé : 65 → 0 ».
  const CHAMPS = {
    paid: "score payé", sanction: "sanction", reasons: "cases du billet", commission: "renvoi en commission",
    place: "place payée", score_written_back: "score renvoyé", not_admitted: "mots non admis",
    average_cap: "plafond de la moyenne", discipline_warnings: "avertissements disciplinaires", billet: "billet",
    engine: "version du moteur",
  };
  function valeur(champ, v) {
    if (champ === "sanction") return (Decision.SANCTIONS[v] || [v])[0];
    if (champ === "reasons") {
      const codes = v.replace(/^\[|\]$/g, "").split(/\s+/).filter(Boolean);
      return codes.length ? Decision.cases(codes).join(", ") : "aucune";
    }
    return { true: "oui", false: "non", null: "aucun", "": "aucune" }[v] || v;
  }
  function difference(texte) {
    const m = /^(\w+) : (.*) → (.*)$/.exec(texte);
    if (!m || !CHAMPS[m[1]]) return texte;
    return `${CHAMPS[m[1]]} : ${valeur(m[1], m[2])} → ${valeur(m[1], m[3])}`;
  }

  async function charger() {
    const etat = document.getElementById("etat");
    try {
      const r = await session.query(REPLAY, { p: partie, c: coup }), d = r.replay;
      await nommer(r.partie && r.partie.tournoi);
      document.getElementById("contenu").hidden = false;
      document.getElementById("titre").textContent = "Commission — partie " + partie;
      document.getElementById("source-tirage").textContent = sourceTirage(r.partie && r.partie.config);
      document.getElementById("coup").textContent = `coup ${d.coup} / ${d.dernierCoup}`;
      document.getElementById("lexique").textContent = d.lexique;
      document.getElementById("tirage").textContent = d.tirage;
      document.getElementById("reliquat").textContent = d.reliquat || "—";
      document.getElementById("sac").textContent = d.sac;
      document.getElementById("top").textContent = d.top ? `${d.top.mot} en ${d.top.reference}, ${d.top.score} pts` : "aucun";
      drawBoard(document.getElementById("plateau"), avecTop(d.grille, d.top), d.top ? d.top.cases : []);
      remplir("solutions", d.solutions.map((s) => cellules(document.createElement("tr"),
        [s.mot, s.reference, s.score, s.avecJoker ? "oui" : "", s.admissible ? "oui" : "non"])));
      remplir("bulletins", d.bulletins.map((b) => {
        const tr = cellules(document.createElement("tr"), [joueur(b.licence), b.table || ""]);
        tr.dataset.licence = b.licence;
        tr.appendChild(bulletin(b.ecrit));
        cellules(tr, [b.enregistree ? Decision.texte(b.enregistree.decision) : "en attente de correction",
          Decision.texte(b.moteur.decision)]);
        if (b.ecart) {
          tr.className = "ecart";
          const diff = document.createElement("div");
          diff.className = "differences";
          diff.textContent = (b.differences || []).map(difference).join(" ; ");
          tr.lastChild.appendChild(diff);
        }
        const td = document.createElement("td");
        const appel = document.createElement("button");
        appel.type = "button";
        appel.textContent = "Faire appel";
        appel.dataset.licence = b.licence;
        appel.onclick = () => appels.preparerDepot(d.coup, b.licence);
        td.appendChild(appel);
        tr.appendChild(td);
        return tr;
      }));
      remplir("journal", lignesActes(d.journal));
      etat.textContent = "";
      history.replaceState(null, "", adresse());
      document.getElementById("precedent").disabled = d.coup <= 1;
      document.getElementById("suivant").disabled = d.coup >= d.dernierCoup;
    } catch (e) {
      if (e.code === "UNAUTHENTICATED") {
        document.getElementById("contenu").hidden = true;
      } else if (e.code === "FORBIDDEN") {
        document.getElementById("contenu").hidden = true;
        session.deconnecter(e.message);
      }
      etat.textContent = e.message;
    }
  }

  document.getElementById("precedent").onclick = () => { coup--; charger(); };
  document.getElementById("suivant").onclick = () => { coup++; charger(); };
  const session = new Session("Jeton de la commission", () => { charger(); appels.charger(); });
  const appels = new Appels(session, partie, { allerAuCoup: (n) => { coup = n; charger(); scrollTo(0, 0); } });
})();
