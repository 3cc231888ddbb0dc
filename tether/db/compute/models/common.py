"""The declarative base of the compute database's models."""

from tether.db import base

# The compute database's tables (a MetaData of their own).
Base = base.service_base('ComputeBase')
