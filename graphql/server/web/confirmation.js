// Confirmation of an action that cannot be undone (an event is never
// erased): a box over the page with the question in French, « Annuler »
// and « Confirmer ». Resolves to true only on « Confirmer »; Escape
// cancels. While it is shown the page behind it cannot be clicked.
//
//   if (!(await Arbitre.confirmer("Rendre la décision ? Elle est définitive."))) return;
"use strict";

(function () {
  const Arbitre = window.Arbitre || (window.Arbitre = {});
  let voile, repondre;

  function bouton(valeur, texte) {
    const b = document.createElement("button");
    b.type = "button";
    b.value = valeur;
    b.textContent = texte;
    b.onclick = () => fermer(valeur === "oui");
    return b;
  }

  function fermer(oui) {
    voile.hidden = true;
    document.removeEventListener("keydown", echap);
    if (repondre) repondre(oui);
    repondre = null;
  }

  function echap(ev) {
    if (ev.key === "Escape") fermer(false);
  }

  function creer() {
    voile = document.createElement("div");
    voile.id = "confirmation";
    voile.className = "confirmation";
    voile.hidden = true;
    const boite = document.createElement("div");
    boite.className = "boite";
    boite.setAttribute("role", "alertdialog");
    const question = document.createElement("p");
    question.className = "question";
    const boutons = document.createElement("p");
    boutons.className = "boutons";
    boutons.append(bouton("non", "Annuler"), " ", bouton("oui", "Confirmer"));
    boite.append(question, boutons);
    voile.appendChild(boite);
    document.body.appendChild(voile);
  }

  Arbitre.confirmer = function (question) {
    if (!voile) creer();
    if (repondre) fermer(false);
    voile.querySelector(".question").textContent = question;
    voile.hidden = false;
    document.addEventListener("keydown", echap);
    voile.querySelector('button[value="oui"]').focus();
    return new Promise((resolve) => { repondre = resolve; });
  };
})();
