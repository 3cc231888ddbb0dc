"""tether: an OpenStack-compatible control plane for block storage and compute."""
