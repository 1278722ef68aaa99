// The printed pages of a classique tournament (A4, black on white with
// impression.css): /impression/classique/<tournoi>/appariements?ronde=N (the
// round's pairings), /classement (the standings) and /feuilles?ronde=N (one
// feuille de match per table, §2.1.5, §7). Public data only, like the hall
// display: `chromium --headless --print-to-pdf URL` prints them without a
// token. Without ronde, the last published round. body[data-pret] is set
// once the page is drawn.
import { coteClassique, COTES_CALCULEES, nomsClassique, relireCotes, scoreTable } from "./classique-commun.js";
import { ligne, param, query } from "./gql.js";

  const $ = (id) => document.getElementById(id);
  const morceaux = location.pathname.replace(/^\/impression\/classique\/?/, "").split("/");
  const tournoi = decodeURIComponent(morceaux[0] || "");
  const quoi = morceaux[1] || "appariements";
  const LIGNES_FEUILLE = 25;

  const el = (tag, texte, classe) => {
    const e = document.createElement(tag);
    if (texte !== undefined) e.textContent = texte;
    if (classe) e.className = classe;
    return e;
  };

  // tableau builds a table with its header row; cells as ligne.
  function tableau(entetes, lignes, classe) {
    const t = el("table", undefined, classe);
    const tr = el("tr");
    for (const [h, num] of entetes) tr.appendChild(el("th", h, num ? "num" : ""));
    t.appendChild(el("thead")).appendChild(tr);
    t.appendChild(el("tbody")).append(...lignes);
    return t;
  }

  function appariements(t, ronde, noms, page) {
    page.append(el("h2", `Ronde ${ronde.ronde} / ${t.rondes} — appariements${ronde.amendee ? " (amendés par le directeur)" : ""}`));
    page.append(tableau([["Table", true], ["Commence (§3.1)", false], ["Licence", false], ["Second", false], ["Licence", false], ["Score", false]],
      ronde.tables.map((tb) => ligne([[tb.numero, true], [noms[tb.premier], false], [tb.premier, false],
        [noms[tb.second], false], [tb.second, false], [scoreTable(tb), false]]))));
    if (ronde.exempt) page.append(el("p", `Exempt : ${noms[ronde.exempt]} (${ronde.exempt}) — 450–350 contre le joueur fictif.`));
  }

  function classement(t, page) {
    const joues = t.publiees.filter((r) => r.tables.every((tb) => tb.resultat)).length;
    page.append(el("h2", t.clos ? "Classement final" : `Classement après ${joues} ronde(s) sur ${t.rondes}`));
    page.append(tableau([["Rang", true], ["Nom", false], ["Licence", false], ["PM", true], ["PPM", true], ["Pdep", true],
      ["Écart", true], ["Cote", true], ["Parties", true]],
    t.classement.map((l) => ligne([[l.rang, true], [l.nom + (l.retire ? " (retiré)" : ""), false], [l.joueur, false],
      [l.pointsDeMatch, true], [l.ppm, true], [l.pdep, true], [l.ecart, true], [coteClassique(t, l), true], [l.parties, true]]))));
    if (t.cotesCalculees.length) page.append(el("p", "Cote : avant → après le tournoi, et l'écart."));
    page.append(el("p", "PM : points de match ; PPM : points de match entre ex æquo ; Pdep : écart plafonné à ±200 par partie."));
  }

  // feuille is the match sheet of one table: the players (the first one
  // starts, §3.1), a score sheet per player, the letters the jokers stand
  // for, the final scores and points de match (§2.1.5) and the signatures
  // (§7: the signed sheet proves the result).
  function feuille(t, ronde, tb, noms) {
    const s = el("section", undefined, "feuille bloc-papier");
    s.append(el("h2", `Feuille de match — ${t.nom} — ronde ${ronde.ronde}, table ${tb.numero}`));
    s.append(tableau([["Joueur 1 — commence (§3.1)", false], ["Joueur 2", false]],
      [ligne([[`${noms[tb.premier]} (${tb.premier})`, false], [`${noms[tb.second]} (${tb.second})`, false]])], "joueurs"));
    const vides = [];
    for (let i = 1; i <= LIGNES_FEUILLE; i++) {
      vides.push(ligne([[i, true], ["", false], ["", false], ["", true], ["", true], ["", false], ["", false], ["", true], ["", true]]));
    }
    s.append(tableau([["Coup", true], ["Mot (J1)", false], ["Réf.", false], ["Points", true], ["Cumul", true],
      ["Mot (J2)", false], ["Réf.", false], ["Points", true], ["Cumul", true]], vides, "coups"));
    s.append(tableau([["", false], ["Joueur 1", false], ["Joueur 2", false]], [
      ligne([["Lettres représentées par les jokers (§2.1.5)", false], ["", false], ["", false]]),
      ligne([["Lettres restantes (§7)", false], ["", false], ["", false]]),
      ligne([["Score final", false], ["", false], ["", false]]),
      ligne([["Points de match (PM)", false], ["", false], ["", false]]),
      ligne([["Fin : lettres épuisées, blocage, temps, six passes, abandon, forfait (§7, §9)", false], ["", false], ["", false]]),
    ]));
    s.append(tableau([["Signature du joueur 1", false], ["Signature du joueur 2", false], ["Arbitre", false]],
      [ligne([["", false], ["", false], ["", false]])], "signatures"));
    return s;
  }

  async function dessiner() {
    const page = $("page");
    try {
      const d = await query(`query($t: ID!) { tournoiClassique(id: $t) { id nom rondes clos inscrits { joueur nom }
        publiees { ronde exempt amendee tables { numero premier second resultat { joueurs scores fin } } }
        classement { rang joueur nom pointsDeMatch ppm pdep ecart cote parties retire } ${COTES_CALCULEES} } }`, { t: tournoi });
      const t = d.tournoiClassique;
      if (!t) throw new Error(`Le tournoi ${tournoi} n'existe pas.`);
      const noms = nomsClassique(t);
      const n = parseInt(param("ronde") || t.publiees.length, 10);
      const ronde = t.publiees.find((r) => r.ronde === n);
      page.replaceChildren();
      $("titre").textContent = t.nom;
      document.title = `${t.nom} — ${quoi}`;
      if (quoi === "classement") classement(t, page);
      else if (!ronde) throw new Error(n ? `La ronde ${n} n'est pas publiée.` : "Aucune ronde n'est publiée.");
      else if (quoi === "feuilles") page.append(...ronde.tables.map((tb) => feuille(t, ronde, tb, noms)));
      else appariements(t, ronde, noms, page);
      if (quoi === "classement") relireCotes(t, dessiner);
    } catch (e) {
      page.replaceChildren(el("p", e.message, "erreur"));
    }
    document.body.dataset.pret = "1";
  }

  $("retour").href = "/directeur/classique/" + encodeURIComponent(tournoi);
  $("imprimer").addEventListener("click", () => window.print());
  dessiner();
