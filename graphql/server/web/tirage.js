// The tirage as the juge-arbitre announces it (§3.1, §3.2), shared by the
// hall display and the director's console: the reliquat (alphabetical,
// joker last) apart from the new letters (in order of extraction), and each
// rejet with its reason.
//
//   montrerTirage(element, reliquat, nouvelles); // tiles, two groups
//   rejetTexte(rejet);  // « Rejet : EIIU + IEO — … (§3.2) »

  // The fields of Partie a page asks for.
  export const CHAMPS_TIRAGE = "reliquat nouvelles rejets { coup reliquat nouvelles motif }";

  const MOTIFS = {
    voyelles_consonnes: "pas assez de voyelles ou de consonnes (§3.2)",
    choix_directeur: "choix du juge-arbitre sur le Y ou le joker (§3.2)",
    tirage_identique: "mêmes lettres que le coup annulé (§3.6)",
  };

  // groupes writes a tirage as announced: reliquat + nouvelles.
  function groupes(reliquat, nouvelles) {
    return (reliquat ? reliquat + " + " : "") + (nouvelles || "");
  }

  export function rejetTexte(r) {
    return `Rejet : ${groupes(r.reliquat, r.nouvelles)} — ${MOTIFS[r.motif] || r.motif}`;
  }

  // montrerTirage fills element's .reliquat and .nouvelles children with one
  // tile per letter; the element's data-reliquat and data-nouvelles say them.
  export function montrerTirage(element, reliquat, nouvelles) {
    const tuiles = (lettres) => [...(lettres || "")].map((l) => {
      const s = document.createElement("span");
      s.className = "tuile" + (l === "?" ? " joker" : "");
      s.textContent = l;
      return s;
    });
    element.querySelector(".reliquat").replaceChildren(...tuiles(reliquat));
    element.querySelector(".nouvelles").replaceChildren(...tuiles(nouvelles));
    element.dataset.reliquat = reliquat || "";
    element.dataset.nouvelles = nouvelles || "";
  }
