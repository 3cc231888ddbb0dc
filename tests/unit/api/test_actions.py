"""The actions of one action route, gathered from several handler
modules: every module's actions are served, and an action two modules
name is refused when the routes are built, not served by the last."""

import pytest

from tether.api.compute.handlers import console_output
from tether.api.compute.handlers import lock_server
from tether.api.compute.handlers import pause_server
from tether.api.compute.handlers import rescue
from tether.api.compute.handlers import server_actions
from tether.api.compute.handlers import server_images
from tether.api.compute.handlers import suspend_server
from tether.api.compute import routes
from tether.api import actions


def test_the_server_action_route_serves_every_modules_actions():
    (dispatcher,) = [methods['POST'] for path, methods in routes.RESOURCES
                     if path == '/servers/{server_id}/action']
    assert dispatcher.actions == dict(server_actions.ACTIONS,
                                      **console_output.ACTIONS,
                                      **lock_server.ACTIONS,
                                      **pause_server.ACTIONS,
                                      **suspend_server.ACTIONS,
                                      **rescue.ACTIONS,
                                      **server_images.ACTIONS)
    assert dispatcher.actions['os-getConsoleOutput'] is \
        console_output.get_console_output


def test_an_action_in_two_tables_is_refused():
    with pytest.raises(ValueError, match='server actions defined twice: '
                                         'os-start'):
        actions.Dispatcher('server', server_actions.ACTIONS,
                           {'os-start': console_output.get_console_output})
