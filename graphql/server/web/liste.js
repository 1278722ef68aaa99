// Lists of players pasted or uploaded by a director (CSV, semicolon or tab
// separated, as spreadsheets export them), read into rows with every bad line
// named before anything is written. Shared by the duplicate and classique
// consoles.
//
//   const { lignes, erreurs } = lireListe(texte, [
//     { cle: "licence", requis: true },
//     { cle: "nom", requis: true },
//     { cle: "club" },
//     { cle: "serie", valide: (v) => /^[A-Z]?$/.test(v) || "série : une lettre (A, B, C…)" },
//     { cle: "table", entier: true },
//   ]);
//
// Columns come in the given order; a first line naming the columns (in any
// case, accents ignored) is a header and is skipped. Each row of lignes
// carries its line number (n, from 1 as an editor counts); each error is
// { n, message } in French. A licence (the first column) seen twice is an
// error on the second line.

  const sansAccent = (s) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();

  // separateur picks the separator the text uses most on its first line.
  function separateur(ligne) {
    let meilleur = ",", n = -1;
    for (const s of ["\t", ";", ","]) {
      const k = ligne.split(s).length;
      if (k > n) { meilleur = s; n = k; }
    }
    return meilleur;
  }

  // champs splits one line, honouring double quotes ("Dupont, Jean").
  function champs(ligne, sep) {
    const out = [];
    let cur = "", guillemets = false;
    for (let i = 0; i < ligne.length; i++) {
      const c = ligne[i];
      if (guillemets) {
        if (c === '"' && ligne[i + 1] === '"') { cur += '"'; i++; }
        else if (c === '"') guillemets = false;
        else cur += c;
      } else if (c === '"') guillemets = true;
      else if (c === sep) { out.push(cur.trim()); cur = ""; }
      else cur += c;
    }
    out.push(cur.trim());
    return out;
  }

  export function lireListe(texte, colonnes) {
    const brutes = texte.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
    const lignes = [], erreurs = [], vues = new Map();
    const premiere = brutes.find((l) => l.trim() !== "");
    if (premiere === undefined) return { lignes, erreurs: [{ n: 0, message: "la liste est vide" }] };
    const sep = separateur(premiere);
    let entete = true;
    brutes.forEach((brute, i) => {
      const n = i + 1;
      if (brute.trim() === "") return;
      const valeurs = champs(brute, sep);
      if (entete) {
        entete = false;
        if (sansAccent(valeurs[0]) === colonnes[0].cle) return;
      }
      if (valeurs.length > colonnes.length) {
        erreurs.push({ n, message: `${valeurs.length} colonnes, ${colonnes.length} au plus (${colonnes.map((c) => c.cle).join(", ")})` });
        return;
      }
      const ligne = { n };
      const fautes = [];
      colonnes.forEach((c, k) => {
        const v = valeurs[k] || "";
        if (v === "") {
          if (c.requis) fautes.push(`${c.cle} manquant`);
          return;
        }
        if (c.entier) {
          if (!/^\d+$/.test(v)) { fautes.push(`${c.cle} « ${v} » : un nombre entier attendu`); return; }
          ligne[c.cle] = parseInt(v, 10);
          return;
        }
        const verdict = c.valide ? c.valide(v) : true;
        if (verdict !== true) { fautes.push(verdict); return; }
        ligne[c.cle] = v;
      });
      const cle = ligne[colonnes[0].cle];
      if (cle !== undefined && vues.has(cle)) fautes.push(`${colonnes[0].cle} ${cle} déjà en ligne ${vues.get(cle)}`);
      if (fautes.length) { erreurs.push({ n, message: fautes.join(" ; ") }); return; }
      if (cle !== undefined) vues.set(cle, n);
      lignes.push(ligne);
    });
    return { lignes, erreurs };
  }
