// Draws the FISF board as SVG: premium squares coloured as on the board
// (red triple word, pink double word and the star, dark blue triple letter,
// light blue double letter), tiles with their value, jokers marked with a
// circle and no value, and highlighted squares for the last word.

  const premiums = {
    tw: ["A1", "A8", "A15", "H1", "H15", "O1", "O8", "O15"],
    dw: ["B2", "C3", "D4", "E5", "K11", "L12", "M13", "N14", "B14", "C13", "D12", "E11", "K5", "L4", "M3", "N2", "H8"],
    tl: ["B6", "B10", "F2", "F6", "F10", "F14", "J2", "J6", "J10", "J14", "N6", "N10"],
    dl: ["A4", "A12", "C7", "C9", "D1", "D8", "D15", "G3", "G7", "G9", "G13", "H4", "H12", "I3", "I7", "I9", "I13",
      "L1", "L8", "L15", "M7", "M9", "O4", "O12"],
  };
  const colours = { tw: "#d7263d", dw: "#f4a7b9", tl: "#1d4e89", dl: "#8ecae6", plain: "#1f6f50" };
  const values = { A: 1, B: 3, C: 3, D: 2, E: 1, F: 4, G: 2, H: 4, I: 1, J: 8, K: 10, L: 1, M: 2, N: 1, O: 1, P: 3,
    Q: 8, R: 1, S: 1, T: 1, U: 1, V: 4, W: 10, X: 10, Y: 10, Z: 10 };
  const premiumAt = {};
  for (const kind in premiums) for (const sq of premiums[kind]) premiumAt[sq] = kind;
  const rows = "ABCDEFGHIJKLMNO";
  const NS = "http://www.w3.org/2000/svg";

  function el(name, attrs, text) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // squaresOf lists the squares a word covers from its FISF reference.
  export function squaresOf(ref, length) {
    const m = /^([A-Oa-o])(\d{1,2})$/.exec(ref);
    const v = /^(\d{1,2})([A-Oa-o])$/.exec(ref);
    const out = [];
    if (!m && !v) return out;
    let r = rows.indexOf((m ? m[1] : v[2]).toUpperCase());
    let c = parseInt(m ? m[2] : v[1], 10) - 1;
    for (let i = 0; i < length; i++) out.push(rows[m ? r : r + i] + ((m ? c + i : c) + 1));
    return out;
  }

  // drawBoard renders grid (15 strings, '.' empty, upper case tile, lower
  // case joker) into container; highlight lists squares such as "H8".
  export function drawBoard(container, grid, highlight) {
    const cell = 40, margin = 24, size = margin + 15 * cell + 4;
    const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, class: "plateau", role: "img", "aria-label": "grille" });
    const lit = new Set(highlight || []);
    for (let c = 0; c < 15; c++) {
      svg.appendChild(el("text", { x: margin + c * cell + cell / 2, y: 16, class: "coord" }, String(c + 1)));
    }
    for (let r = 0; r < 15; r++) {
      svg.appendChild(el("text", { x: 10, y: margin + r * cell + cell / 2 + 5, class: "coord" }, rows[r]));
      for (let c = 0; c < 15; c++) {
        const name = rows[r] + (c + 1);
        const x = margin + c * cell, y = margin + r * cell;
        const ch = grid && grid[r] ? grid[r][c] : ".";
        const g = el("g", { "data-square": name });
        if (ch === "." || ch === undefined) {
          const kind = premiumAt[name] || "plain";
          g.appendChild(el("rect", { x, y, width: cell - 1, height: cell - 1, fill: colours[kind], class: "case " + kind }));
          if (name === "H8") g.appendChild(el("text", { x: x + cell / 2, y: y + cell / 2 + 7, class: "etoile" }, "★"));
        } else {
          const joker = ch === ch.toLowerCase();
          g.appendChild(el("rect", { x: x + 1, y: y + 1, width: cell - 3, height: cell - 3, rx: 4,
            class: "jeton" + (lit.has(name) ? " nouveau" : "") }));
          g.appendChild(el("text", { x: x + cell / 2, y: y + cell / 2 + 8, class: "lettre" }, ch.toUpperCase()));
          if (joker) {
            g.appendChild(el("circle", { cx: x + cell / 2, cy: y + cell / 2 + 1, r: cell / 2 - 6, class: "joker" }));
          } else {
            g.appendChild(el("text", { x: x + cell - 6, y: y + cell - 5, class: "valeur" }, String(values[ch] || 0)));
          }
        }
        svg.appendChild(g);
      }
    }
    container.replaceChildren(svg);
  }
