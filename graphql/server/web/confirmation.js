// Confirmation of an action that cannot be undone (an event is never
// erased): a modal dialog with the question in French, « Annuler » and
// « Confirmer ». Resolves to true only on « Confirmer »; Escape cancels.
//
//   if (!(await Arbitre.confirmer("Rendre la décision ? Elle est définitive."))) return;
"use strict";

(function () {
  const Arbitre = window.Arbitre || (window.Arbitre = {});
  let dialogue;

  function creer() {
    dialogue = document.createElement("dialog");
    dialogue.id = "confirmation";
    dialogue.className = "confirmation";
    const question = document.createElement("p");
    question.className = "question";
    const form = document.createElement("form");
    form.method = "dialog";
    const annuler = document.createElement("button");
    annuler.value = "non";
    annuler.textContent = "Annuler";
    const confirmer = document.createElement("button");
    confirmer.value = "oui";
    confirmer.id = "confirmer";
    confirmer.textContent = "Confirmer";
    form.append(annuler, " ", confirmer);
    dialogue.append(question, form);
    document.body.appendChild(dialogue);
  }

  Arbitre.confirmer = function (question) {
    if (!dialogue) creer();
    dialogue.querySelector(".question").textContent = question;
    dialogue.returnValue = "non";
    return new Promise((resolve) => {
      dialogue.addEventListener("close", () => resolve(dialogue.returnValue === "oui"), { once: true });
      dialogue.showModal();
    });
  };
})();
