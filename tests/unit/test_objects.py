"""Versioned objects: loading from the database equals coercing each field."""

import datetime
import uuid

from tether.objects.volume import volume as volume_obj

VALUES = {
    'id': str(uuid.uuid4()), 'project_id': 'p', 'user_id': 'u',
    'host': 'h@b#pool', 'name': 'n', 'description': None, 'size': 3,
    'availability_zone': 'nova', 'status': 'available',
    'previous_status': None, 'attach_status': 'detached',
    'volume_type_id': str(uuid.uuid4()), 'volume_type_name': '__DEFAULT__',
    'bootable': False, 'multiattach': True, 'provider_location': '/srv/s',
    'created_at': datetime.datetime(2026, 11, 22, 5, 0, 0, 123456),
    'updated_at': None, 'launched_at': datetime.datetime(2026, 11, 22, 5, 1),
    'metadata': {'k': 'v'}, 'admin_metadata': {'format': 'raw'},
}


def _coerced():
    obj = volume_obj.Volume()
    for key, value in VALUES.items():
        setattr(obj, key, value)
    obj.obj_reset_changes()
    return obj


def test_trusted_values_equal_coerced_values():
    trusted = volume_obj.Volume.from_trusted_values(dict(VALUES))
    coerced = _coerced()
    assert trusted.obj_to_primitive() == coerced.obj_to_primitive()
    for key in VALUES:
        assert getattr(trusted, key) == getattr(coerced, key), key
    assert trusted.created_at.tzinfo is not None
    assert not trusted.obj_what_changed()


def test_round_trip_over_rpc_primitives():
    trusted = volume_obj.Volume.from_trusted_values(dict(VALUES))
    again = volume_obj.Volume.obj_from_primitive(trusted.obj_to_primitive())
    assert again.obj_to_primitive() == trusted.obj_to_primitive()


def test_trusted_row_equals_trusted_values():
    names = tuple(VALUES)
    row = tuple(VALUES.values())
    from_row = volume_obj.Volume.from_trusted_row(
        names[:-2], row[:-2], {'metadata': {'k': 'v'},
                               'admin_metadata': {'format': 'raw'}})
    assert (from_row.obj_to_primitive() ==
            volume_obj.Volume.from_trusted_values(
                dict(VALUES)).obj_to_primitive())
    assert from_row.launched_at.tzinfo is not None
    assert not from_row.obj_what_changed()


def test_getters_read_set_fields_and_load_unset_ones():
    """The fields' getters in C (TetherObjectRegistry.registration_hook)
    behave as oslo's: a set field is read, an unset one goes through
    obj_load_attr, which either sets it or raises; setters coerce."""
    volume = volume_obj.Volume()
    assert not volume.obj_attr_is_set('id')
    assert volume.snapshot_id is None      # obj_load_attr sets it
    try:
        volume.id
    except NotImplementedError:
        pass
    else:
        raise AssertionError('an unset field without a loader was read')
    try:
        volume.no_such_field
    except AttributeError:
        pass
    else:
        raise AssertionError('an attribute that is no field was read')
    volume.size = '3'
    assert volume.size == 3
    assert 'size' in volume.obj_what_changed()
