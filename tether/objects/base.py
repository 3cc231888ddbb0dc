"""Base classes of tether's versioned objects and their RPC serializer."""

from oslo_versionedobjects import base

from tether.objects import fields as t_fields


class TetherObjectRegistry(base.VersionedObjectRegistry):
    pass


class TetherObject(base.VersionedObject):
    OBJ_PROJECT_NAMESPACE = 'tether'
    OBJ_SERIAL_NAMESPACE = 'tether_object'

    def obj_make_dict(self):
        return {k: getattr(self, k) for k in self.fields
                if self.obj_attr_is_set(k)}


class TetherObjectSerializer(base.VersionedObjectSerializer):
    OBJ_BASE_CLASS = TetherObject


fields = t_fields
