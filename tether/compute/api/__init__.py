"""The compute service in the API process: the rules of each resource.

A state change is claimed with one conditional UPDATE before any work is
cast (or called) to a compute host.
"""
