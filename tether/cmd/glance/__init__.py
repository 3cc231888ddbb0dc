"""Glance, the image service of tether-aio (and of the integration
deployment), as a child process (runner.py, child.py); templates.py has
its configuration, plugins/ the modules that run inside Glance's own
process."""
