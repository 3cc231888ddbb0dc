"""The compute service (Nova-compatible): its rules in the API process
(api/), its work on the hypervisor hosts (ops/), the manager and the RPC
client between them, and its client of the volume API."""
