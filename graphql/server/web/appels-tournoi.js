// /commission (the commission's page without a game): the appeals of a
// whole tournament (§6.3–§6.4), for the
// commission between games. The tournament is the token's own (moi), or,
// for a token valid for every tournament, the one given by ?tournoi= or
// typed into the page. Each appeal opens on its game's page
// (/commission/<partie>?coup=N&appel=ID), where the commission works it.
import { APPELS_TOURNOI, lignesAppels } from "./appels.js";
import { param, query } from "./gql.js";
import { Session } from "./session.js";

export function appelsDuTournoi() {
  document.body.classList.add("tournoi");
  document.querySelector("header nav").hidden = true;
  document.getElementById("titre").textContent = "Commission — appels du tournoi";
  const choix = document.getElementById("choix-tournoi");
  const message = document.getElementById("appel-message");
  let tournoi = param("tournoi") || "";

  const surLaPartie = (a) => `/commission/${encodeURIComponent(a.partie)}?coup=${a.coup || 1}&appel=${encodeURIComponent(a.id)}`;

  async function charger() {
    try {
      if (!tournoi) tournoi = ((await session.query(`{ moi { tournoi } }`)).moi || {}).tournoi || "";
      choix.hidden = !!tournoi;
      if (!tournoi) return;
      const t = (await query(`query($t: ID!) { tournoi(id: $t) { nom } }`, { t: tournoi })).tournoi;
      document.getElementById("titre").textContent = `Commission — appels du tournoi ${t ? t.nom : tournoi}`;
      const liste = (await session.query(APPELS_TOURNOI, { t: tournoi })).appels;
      history.replaceState(null, "", `/commission?tournoi=${encodeURIComponent(tournoi)}`);
      document.getElementById("recours").hidden = false;
      document.getElementById("appels-vide").hidden = liste.length > 0;
      document.getElementById("appels").replaceChildren(...lignesAppels(liste, {
        lien: (a) => {
          const lien = document.createElement("a");
          lien.textContent = `rejeu du coup ${a.coup}`;
          lien.href = surLaPartie(a);
          return lien;
        },
        ouvrir: (a) => location.assign(surLaPartie(a)) }));
      message.textContent = "";
    } catch (e) {
      message.textContent = e.message;
      message.classList.add("erreur");
    }
  }

  choix.addEventListener("submit", (ev) => {
    ev.preventDefault();
    tournoi = choix.elements.tournoi.value.trim();
    charger();
  });
  const session = new Session("Jeton de la commission", charger);
}
