"""A tether deployment on one machine for the integration job and the
deployment benchmark: see deployment.py."""
