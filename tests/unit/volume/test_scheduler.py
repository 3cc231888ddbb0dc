"""Room on a backend pool (tether.volume.scheduler._room_gb)."""

import pytest

from tether.volume import scheduler


def caps(**values):
    base = {'total_capacity_gb': 100, 'free_capacity_gb': 60,
            'reserved_percentage': 0, 'max_over_subscription_ratio': 1.0,
            'provisioned_capacity_gb': 0,
            'thin_provisioning_support': False}
    base.update(values)
    return base


@pytest.mark.parametrize('values,room', [
    ({}, 60),
    ({'reserved_percentage': 10}, 50),
    ({'free_capacity_gb': 5, 'reserved_percentage': 10}, -5),
    # Thin: free space times the ratio, bounded by what the ratio allows
    # on top of what is already provisioned.
    ({'thin_provisioning_support': True, 'max_over_subscription_ratio': 20.0},
     1200),
    ({'thin_provisioning_support': True, 'max_over_subscription_ratio': 20.0,
      'provisioned_capacity_gb': 1500}, 500),
    ({'thin_provisioning_support': True, 'max_over_subscription_ratio': 2.0,
      'reserved_percentage': 10}, 100),
    ({'thin_provisioning_support': True, 'max_over_subscription_ratio': 1.0,
      'provisioned_capacity_gb': 100}, 0),
])
def test_room(values, room):
    assert scheduler._room_gb(caps(**values)) == pytest.approx(room)


def test_missing_figures_mean_no_room():
    assert scheduler._room_gb({}) == 0
    assert scheduler._room_gb({'total_capacity_gb': None,
                               'free_capacity_gb': None}) == 0
