"""Policy in code: the personas every rule is built from (base), the rules
of each API (volume/, compute/), the enforcer both APIs check them with
(enforcer), and every rule at once for oslo.policy's tools (registry)."""
