"""Base classes of tether's objects: the versioned objects that cross RPC
(and their serializer), and the records that only the process that read
them uses."""

import dataclasses
import datetime
import functools
import operator

from oslo_serialization import jsonutils
from oslo_utils import timeutils
from oslo_versionedobjects import base
from oslo_versionedobjects import fields as ovo_fields

from tether.objects import fields as t_fields


# The prefix of the attribute that stores a field's value.
_STORAGE = base._get_attrname('')
_UTC = datetime.timezone.utc


@functools.cache
def _storage_names(names):
    """The names of the attributes that store the values of the fields
    ``names`` (a tuple), in the same order."""
    return tuple(_STORAGE + name for name in names)


@functools.cache
def _datetime_storage(cls):
    """The storage attributes of the DateTime fields of an object class."""
    return tuple(_STORAGE + name for name, field in cls.fields.items()
                 if isinstance(field, ovo_fields.DateTimeField))


class TetherObjectRegistry(base.VersionedObjectRegistry):

    def registration_hook(self, cls, index):
        """Give the fields of ``cls`` getters in C.

        oslo.versionedobjects reads a field through a Python function
        (hasattr, then getattr, of the attribute behind it): a view of a
        page of 100 volumes reads over 2,000 of them. An attrgetter of
        that attribute reads a set field as fast as a plain attribute;
        for an unset one it raises AttributeError, and Python then calls
        TetherObject.__getattr__, which loads it as oslo's getter does.
        The setters (which coerce) and deleters stay oslo's.
        """
        for name in cls.fields:
            prop = cls.__dict__.get(name)
            if isinstance(prop, property):
                setattr(cls, name, property(
                    operator.attrgetter(_STORAGE + name), prop.fset,
                    prop.fdel, prop.__doc__))


class TetherObject(base.VersionedObject):
    OBJ_PROJECT_NAMESPACE = 'tether'
    OBJ_SERIAL_NAMESPACE = 'tether_object'

    def __getattr__(self, name):
        """A field whose value is not set (its getter found no value;
        TetherObjectRegistry.registration_hook): loaded by
        obj_load_attr, as oslo.versionedobjects' getter loads it."""
        if name not in type(self).fields:
            raise AttributeError('%r object has no attribute %r'
                                 % (type(self).__name__, name))
        self.obj_load_attr(name)
        return getattr(self, _STORAGE + name)

    @classmethod
    def from_trusted_values(cls, values):
        """An object of values the database already typed, uncoerced.

        Field coercion is what made lists slow (two thirds of the time of a
        page of 100 volumes): the columns' types already match the fields.
        Datetimes get the UTC tzinfo that coercion would have added.
        """
        return cls.from_trusted_row(tuple(values), values.values())

    @classmethod
    def from_trusted_row(cls, names, row, extra=None):
        """:meth:`from_trusted_values` of the fields ``names`` (a tuple)
        whose values ``row`` has in the same order (a row of a SELECT of
        those columns), and of the fields and values of ``extra``."""
        # What VersionedObject.__init__ sets, then the values straight
        # into the storage attributes behind the fields (what setattr
        # fills after coercing), in C loops: a page of volumes makes
        # thousands of them; a Python loop over the values, __init__ and
        # obj_reset_changes took two thirds of a volume's 24 us.
        obj = cls.__new__(cls)
        state = obj.__dict__
        state['_changed_fields'] = set()
        state['_context'] = None
        state.update(zip(_storage_names(names), row))
        if extra:
            state.update(zip(_storage_names(tuple(extra)), extra.values()))
        for attr in _datetime_storage(cls):
            value = state.get(attr)
            if isinstance(value, datetime.datetime) and value.tzinfo is None:
                state[attr] = value.replace(tzinfo=_UTC)
        return obj

    def obj_make_dict(self):
        return {k: getattr(self, k) for k in self.fields
                if self.obj_attr_is_set(k)}


@dataclasses.dataclass(frozen=True)
class Record:
    """A row as the API and the services see it: a frozen dataclass whose
    fields are columns of the same names. Columns that hold JSON text are
    named in ``JSON_FIELDS`` (field -> the type of its empty value) and
    decoded; ``from_db`` is the only way rows become records.
    """

    # Field -> the value of an empty column: a type (dict, list) to
    # call, or None.
    JSON_FIELDS = {}

    @classmethod
    def from_db(cls, row, **extra):
        """The record of ``row``; ``extra`` gives the fields that are not
        its columns (what the query module read beside it)."""
        values = {field.name: getattr(row, field.name)
                  for field in dataclasses.fields(cls)
                  if field.name not in extra}
        return cls.from_columns(values, **extra)

    @classmethod
    def from_columns(cls, values, **extra):
        """The record of ``values`` ({field: its column's value}, which it
        takes over; the JSON columns decoded) and of ``extra``."""
        for name, empty in cls.JSON_FIELDS.items():
            if name in values:
                text = values[name]
                values[name] = (jsonutils.loads(text) if text
                                else empty() if empty is not None else None)
        values.update(extra)
        return cls(**values)


class ReportsIn:
    """A service record: the service is up while its last heartbeat is
    younger than ``down_time`` seconds."""

    def is_up(self, down_time):
        if self.heartbeat_at is None:
            return False
        age = timeutils.utcnow() - self.heartbeat_at
        return age <= datetime.timedelta(seconds=down_time)


class TetherObjectSerializer(base.VersionedObjectSerializer):
    """Objects as versioned primitives.

    With ``object_versions`` (a version manifest: object name -> version,
    what a receiver of a pinned RPC version reads), each object goes at
    the version the manifest names, the objects it holds too
    (``obj_to_primitive`` backports them with ``obj_make_compatible``);
    without one, or for an object the manifest does not name, at its
    newest version. Receivers take what they get: nothing is backported
    on their side.
    """
    OBJ_BASE_CLASS = TetherObject

    def __init__(self, object_versions=None):
        super().__init__()
        self.object_versions = object_versions

    def serialize_entity(self, context, entity):
        if self.object_versions and isinstance(entity, TetherObject):
            return entity.obj_to_primitive(
                target_version=self.object_versions.get(entity.obj_name(),
                                                        entity.VERSION),
                version_manifest=self.object_versions)
        return super().serialize_entity(context, entity)


fields = t_fields
