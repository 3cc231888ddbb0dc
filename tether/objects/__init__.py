"""Objects: what the services and APIs pass around instead of rows.

base.py has the versioned objects' base and RPC serializer and the
records'; fields.py every state enum. Each service's objects are in
volume/ and compute/; each registers its versioned objects with its
``register_all()``.
"""
