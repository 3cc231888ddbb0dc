"""The compute service (Nova-compatible): its API, manager and flows."""
