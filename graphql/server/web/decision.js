// Decision: a correction decision (type Decision of the API) in French, for
// every page that shows or prints one. Each sanction names its article of
// the règlement (§5.5 avertissement, §5.6 pénalité, §5.7 nullité, §5.9
// moyenne); each reason is a box of the billet de correction (guide §5.2,
// its number in parentheses) or the article that gives it.
//
// Usage:
//   Decision.texte(d)      // « avertissement : score erroné (§5.5) — 37 pts »
//   Decision.texte(d, coup, ecrit) // the same, the place explained on the first coup
//   Decision.paye(d, coup, ecrit)  // « 14 pts en H3 », or on the first coup why H3
//   Decision.raison(code)  // « (6) score erroné »
//   Decision.cases(raisons) // the billet's boxes, (27) for INVERTED + REFERENCE_WRONG
//   Decision.SANCTIONS, Decision.RAISONS

  // [French name, article]
  const SANCTIONS = {
    none: ["sans sanction", ""],
    warning: ["avertissement", "§5.5"],
    penalty: ["pénalité de 5 points", "§5.6"],
    zero: ["nullité", "§5.7"],
    average: ["moyenne", "§5.9"],
  };

  // [box of the billet or article, French label], in billet order.
  const RAISONS = {
    SCORE_MISSING: ["(5)", "score manquant ou illisible"],
    SCORE_WRONG: ["(6)", "score erroné"],
    JOKER_CIRCLING: ["(7)", "joker non encerclé ou encerclement erroné"],
    RACCORD_TWO_LETTERS: ["(8)", "raccord de 2 lettres"],
    RACCORD_MISSING: ["(20)", "raccord manquant"],
    RACCORD_WRONG: ["(21)", "raccord incorrect"],
    INVERTED: ["(9)", "sens du mot ou référence inversés"],
    TWO_REFERENCES_ONE_WRONG: ["(10)", "deux modes de référence dont un incorrect"],
    REFERENCE_WRONG: ["(22)", "référence erronée"],
    OFFSET: ["(15)", "référencement décalé d'une case"],
    FINAL_LETTER_OMITTED: ["(16)", "lettre finale déjà sur la grille omise"],
    WORD_NOT_ADMITTED: ["(19)", "mot non admis"],
    LETTER_ERROR: ["(23)", "erreur de lettre"],
    GRID_ERROR: ["(26)", "erreur de grille / placement impossible"],
    WORD_NOT_WHOLE: ["(24)", "mot non écrit en entier"],
    NOT_A_WORD: ["§1.1", "une seule lettre n'est pas un mot joué"],
    HARD_TO_READ: ["§5.5", "présentation difficilement lisible"],
    SEVERAL_SOLUTIONS: ["§5.4.2.b", "plusieurs solutions écrites"],
    ABOVE_TOP: ["§5.9", "score supérieur au top"],
    FALLACIOUS_RACCORD: ["§5.3.3", "raccord fallacieux"],
    ILLEGIBLE: ["(25)", "mot illisible"],
    LATE: ["(29)", "temps dépassé"],
    EXCHANGED: ["(30)", "bulletin échangé"],
    BLANK: ["(31)", "bulletin vierge"],
    MISSING: ["(32)", "bulletin manquant"],
    SEVERAL_BULLETINS: ["§5.7", "plusieurs bulletins rendus"],
    DISCIPLINE: ["(11)", "avertissement disciplinaire (§5.8)"],
  };

  // Box (27): the sense AND the reference inverted, a nullité (guide §5.2),
  // which the engine gives as INVERTED with REFERENCE_WRONG.
  const INVERSES = ["(27)", "sens du mot et référence inversés"];

  // cases are a decision's reasons as the billet's boxes: [box, label].
  function cases(raisons) {
    const r = raisons || [];
    const inverses = r.includes("INVERTED") && r.includes("REFERENCE_WRONG");
    const out = [];
    for (const c of r) {
      if (inverses && (c === "INVERTED" || c === "REFERENCE_WRONG")) {
        if (c === "INVERTED") out.push(INVERSES);
        continue;
      }
      out.push(RAISONS[c] || ["", c]);
    }
    return out;
  }

  function points(n) {
    return Math.abs(n) > 1 ? `${n} pts` : `${n} pt`;
  }

  // referencesEcrites are the references written on the bulletin (the
  // batch contract's JSON, as Bulletin.ecrit gives it), crossed-out
  // solutions left out, in capitals.
  function referencesEcrites(ecrit) {
    let b = ecrit;
    if (typeof b === "string") {
      try {
        b = JSON.parse(b);
      } catch (e) {
        return [];
      }
    }
    return ((b && b.solutions) || []).filter((s) => !s.crossed && s.ref).map((s) => s.ref.trim().toUpperCase());
  }

  // paye says what the player is paid and where. On the first coup the
  // maximum for the word is paid whatever reference was written (§5.4.2.a):
  // a place other than the one written says so, or the billet reads « 14 pts
  // en H3 » to a player who wrote H8.
  function paye(d, coup, ecrit) {
    if (!d.place) return points(d.paye);
    const refs = coup === 1 ? referencesEcrites(ecrit) : [];
    if (coup !== 1 || refs.includes(d.place)) return `${points(d.paye)} en ${d.place}`;
    const ecrite = refs.length ? `quelle que soit la référence écrite (${refs.join(", ")})` : "sans référence écrite";
    return `${points(d.paye)}, le maximum du mot au premier coup (placé en ${d.place}), ${ecrite} (§5.4.2.a)`;
  }

  export const Decision = {
    SANCTIONS,
    RAISONS,

    raison(code) {
      const r = RAISONS[code];
      return r ? `${r[0]} ${r[1]}` : code;
    },

    // cases writes a decision's reasons as the billet's boxes, « (27) sens
    // du mot et référence inversés » for INVERTED with REFERENCE_WRONG.
    cases(raisons) {
      return cases(raisons).map(([boite, libelle]) => (boite ? `${boite} ${libelle}` : libelle));
    },

    paye,

    // texte is the decision in one line: the sanction and its article, the
    // reasons, the score paid and where (why there on the first coup, when
    // the coup and the bulletin as written are given).
    texte(d, coup, ecrit) {
      if (!d) return "";
      const [nom, article] = SANCTIONS[d.sanction] || [d.sanction, ""];
      const raisons = cases(d.raisons).map((c) => c[1]).join(", ");
      let t = d.sanction === "none" && !raisons ? "bon" : nom + (raisons ? " : " + raisons : "");
      if (article) t += ` (${article})`;
      t += " — " + paye(d, coup, ecrit);
      if (d.commission) t += " — renvoi en commission";
      return t;
    },
  };
