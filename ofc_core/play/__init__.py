"""The play wing of the core: the engine that deals and plays hands by the rules, the bots,
the Fantasyland setter and the Double cube. It builds on the rules and scoring wing
(``ofc_core`` cards, evaluation, rules, scoring, batch), which never imports it."""
