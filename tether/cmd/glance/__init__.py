"""Glance, the image service of tether-aio, as its child process
(runner.py); templates.py has its configuration, plugins/ the modules
that run inside Glance's own process."""
