"""A real Manila with a one-node Ceph beside tether (issue #14)."""
