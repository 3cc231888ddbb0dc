"""The volume service (Cinder-compatible): its rules in the API process
(api/), its work on the storage hosts (ops/), what both run
(*_state.py, quota.py), the manager and the RPC client between them, and
its client of the compute API."""
