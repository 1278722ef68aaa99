// The per-coup score sheet of a duplicate game (/scores/<partie>), for the
// director, the commission and the arbiters of the game's tournament, as
// DupliTop prints it: every player's points per coup and their cumul, the
// sanctions of each coup (avertissement, pénalité, nullité, moyenne), the
// avertissements counted, solos, the total and the gap to the tops; the top
// of every coup in the header. Sorted by rank or by table (?tri=table), the
// reader's choice; A4 landscape on paper. Only coups whose top is announced
// are shown (their bulletins are public from then on, §5); the points are
// the decisions in force (bulletins), the totals the standings' (classement),
// and the page reads again when the standings change.
import { lexiqueTexte, param } from "./gql.js";
import { Session } from "./session.js";

  const partie = decodeURIComponent(location.pathname.replace(/^\/scores\/?/, "").split("/")[0] || "");
  const tri = param("tri") === "table" ? "table" : "rang";
  const $ = (id) => document.getElementById(id);
  const etat = $("etat");

  const ETAT = `query($p: ID!) { moi { role tournoi }
    partie(id: $p) { tournoi numero statut coup lexique tops { coup mot reference score } fin { resultatsClos } } }`;
  const JOUEURS = `query($t: ID!) { tournoi(id: $t) { nom joueurs { licence nom table } } }`;
  const CLASSEMENT = `query($p: ID!) { classement(partie: $p) {
    rang licence nom score negatif solos avertissements penalites enAttente exclu provisoire } }`;
  // BULLETINS is one coup's decisions; the sheet sends it once per coup
  // topped, as aliases of one request (bulletinsDesCoups).
  const BULLETINS = `query($p: ID!, $c: Int!) { bulletins(partie: $p, coup: $c) { licence decision { paye sanction } } }`;
  // MARQUES are the sanctions as the sheet marks them (the legend says them).
  const MARQUES = { warning: "A", penalty: "P", zero: "N" };

  let live = null;
  const session = new Session("Jeton du directeur, de la commission ou d'un arbitre du tournoi", demarrer,
    ["DIRECTOR", "COMMISSION", "ARBITER"]);

  $("tri-" + tri).setAttribute("aria-current", "true");
  $("imprimer").onclick = () => window.print();

  async function demarrer() {
    try {
      await charger();
    } catch (e) {
      refuser("Feuille indisponible : " + e.message);
      return;
    }
    if (!live) {
      live = session.live((enDirect) => { etat.textContent = enDirect ? "" : "reconnexion…"; });
      live.subscribe(`subscription($p: ID!) { classementChange(partie: $p) { licence } }`, { p: partie },
        relireBientot, (e) => { etat.textContent = e.message; });
    }
  }

  // relireBientot reads the sheet again a second after the standings move:
  // a coup's corrections, one after the other, cost one read.
  let relecture = null;
  function relireBientot() {
    if (relecture) return;
    relecture = setTimeout(() => {
      relecture = null;
      charger().catch((e) => { etat.textContent = "Feuille indisponible : " + e.message; });
    }, 1000);
  }

  function refuser(texte) {
    $("contenu").hidden = true;
    etat.textContent = texte;
  }

  // bulletinsDesCoups reads the decisions of every coup topped in one
  // request (one per coup would spend a 40-coup game's worth of the token's
  // rate at each change): BULLETINS' field once per coup, aliased c<N>, the
  // coup written in.
  function bulletinsDesCoups(coups) {
    if (!coups.length) return {};
    const champ = BULLETINS.slice(BULLETINS.indexOf("bulletins("), BULLETINS.lastIndexOf("}"));
    const champs = coups.map((c) => "c" + c + ": " + champ.replace("$c", String(c)));
    return session.query("query($p: ID!) { " + champs.join(" ") + " }", { p: partie });
  }

  async function charger() {
    if (!partie) throw new Error("adresse sans partie : /scores/<partie>");
    const d = await session.query(ETAT, { p: partie });
    const p = d.partie;
    if (!p) throw new Error(`la partie ${partie} n'existe pas`);
    // The token of another tournament reads nothing here.
    if (d.moi && d.moi.tournoi && d.moi.tournoi !== p.tournoi) {
      refuser(`Ce jeton est celui du tournoi ${d.moi.tournoi} : la partie ${partie} est du tournoi ${p.tournoi}.`);
      return;
    }
    const coups = p.tops.map((t) => t.coup);
    const [t, c, b] = await Promise.all([
      p.tournoi ? session.query(JOUEURS, { t: p.tournoi }) : { tournoi: null },
      session.query(CLASSEMENT, { p: partie }),
      bulletinsDesCoups(coups),
    ]);
    const tables = new Map(((t.tournoi && t.tournoi.joueurs) || []).map((j) => [j.licence, j.table]));
    const decisions = new Map(coups.map((n) => [n, new Map((b["c" + n] || []).map((x) => [x.licence, x.decision]))]));

    document.title = `Scores par coup — ${t.tournoi ? t.tournoi.nom : partie}`;
    $("titre").textContent = `Feuille des scores par coup — ${t.tournoi ? t.tournoi.nom : partie}`;
    $("portee").textContent = `Partie n° ${p.numero || 1} (${partie})` +
      (p.statut === "terminee" ? "" : `, en cours : coup ${p.coup}`) + (p.lexique ? " — " + lexiqueTexte(p.lexique) : "");
    const maintenant = new Date();
    $("edition").textContent = "Éditée le " + maintenant.toLocaleDateString("fr-FR", { dateStyle: "long" }) +
      " à " + maintenant.toLocaleTimeString("fr-FR", { hour: "2-digit", minute: "2-digit" });

    entete(p.tops);
    const lignes = c.classement.slice();
    if (tri === "table") {
      lignes.sort((x, y) => (tables.get(x.licence) || 1e9) - (tables.get(y.licence) || 1e9) || x.nom.localeCompare(y.nom, "fr"));
    }
    $("lignes").replaceChildren(...lignes.map((l) => ligne(l, tables.get(l.licence), p.tops, decisions)));
    $("provisoire").hidden = !lignes.some((l) => l.provisoire);
    const attente = lignes.reduce((n, l) => n + l.enAttente, 0);
    $("attente").textContent = `${lignes.length} joueur(s), ${coups.length} coup(s) au top annoncé.` +
      (attente ? ` ${attente} bulletin(s) en attente de correction ne comptent pas encore.` : "");
    $("contenu").hidden = false;
    document.body.dataset.pret = "1";
    etat.textContent = "";
  }

  function th(texte, classe, titre) {
    const e = document.createElement("th");
    e.textContent = texte;
    if (classe) e.className = classe;
    if (titre) e.title = titre;
    return e;
  }

  // entete writes the coups' header: the coup, its top (word, reference,
  // score) and the tops' cumul.
  function entete(tops) {
    const fixes = [["Rang", "num"], ["Table", "num"], ["Joueur", "nom"]];
    const fin = [["Solos", "num", "solos (§3.5)"], ["Avert.", "num", "avertissements reçus (§5.5, §5.9)"],
      ["Pén.", "num", "points de pénalité : 5 par pénalité (§5.6) et par avertissement au-delà des gratuits (§5.9)"],
      ["Total", "num"], ["Écart", "num", "écart au cumul des tops"]];
    const r1 = document.createElement("tr");
    for (const [x, k] of fixes) {
      const e = th(x, k);
      e.rowSpan = 2;
      r1.append(e);
    }
    let cumul = 0;
    const r2 = document.createElement("tr");
    for (const t of tops) {
      cumul += t.score;
      r1.append(th(String(t.coup), "num"));
      const e = th("", "mot");
      const mot = document.createElement("span");
      mot.className = "mot-top";
      mot.textContent = t.mot;
      const s = document.createElement("b");
      s.textContent = t.score;
      const c = document.createElement("span");
      c.className = "cumul";
      c.textContent = cumul;
      e.append(mot, t.reference + " ", s, c);
      e.dataset.coup = t.coup;
      r2.append(e);
    }
    for (const [x, k, titre] of fin) {
      const e = th(x, k, titre);
      e.rowSpan = 2;
      r1.append(e);
    }
    $("entete").replaceChildren(r1, r2);
  }

  function td(texte, classe) {
    const e = document.createElement("td");
    e.textContent = texte;
    if (classe) e.className = classe;
    return e;
  }

  // ligne is one player's row: the points of each coup topped with their
  // cumul, then his standings.
  function ligne(l, table, tops, decisions) {
    const tr = document.createElement("tr");
    tr.dataset.licence = l.licence;
    tr.append(td(l.rang, "num"), td(table || "", "num"), td(`${l.nom} (${l.licence})` + (l.exclu ? " — exclu (§6.1)" : ""), "nom"));
    let cumul = 0;
    for (const t of tops) {
      const d = decisions.get(t.coup).get(l.licence);
      const cell = td("", "num coup");
      cell.dataset.coup = t.coup;
      let points = "—";
      if (d === null) points = "…";
      else if (d && d.sanction === "average") points = "moy.";
      else if (d) {
        cumul += d.paye;
        points = String(d.paye);
        cell.dataset.points = points;
      }
      if (d) cell.dataset.sanction = d.sanction;
      cell.append(points);
      if (d && MARQUES[d.sanction]) {
        const m = document.createElement("span");
        m.className = "marque";
        m.textContent = MARQUES[d.sanction];
        cell.append(m);
      }
      const c = document.createElement("span");
      c.className = "cumul";
      c.textContent = cumul;
      cell.dataset.cumul = cumul;
      cell.append(c);
      tr.append(cell);
    }
    tr.append(td(l.solos, "num"), td(l.avertissements, "num"), td(l.penalites, "num"), td(l.score, "num total"), td(l.negatif, "num"));
    return tr;
  }
