"""The volume service: API rules, RPC client, manager and flows."""
