"""tether.api.responses: the check of an answer against its declaration,
under each [api] response_validation."""

from oslo_config import cfg
import pytest
import webob

from tether.api import fault
from tether.api import microversion
from tether.api import responses
from tether.api import wsgi

CONF = cfg.CONF

THING = {'type': 'object',
         'properties': {'thing': {
             'type': 'object',
             'properties': {'id': {'type': 'string'}},
             'required': ['id'], 'additionalProperties': False}},
         'required': ['thing'], 'additionalProperties': False}


def _request(version):
    req = webob.Request.blank('/v3/things/1')
    req.environ[microversion.VERSION_KEY] = microversion.parse(version)
    return req


def _handler(answer):
    @responses.declare(THING, 200, '3.0', '3.4')
    @responses.declare(None, 204, '3.5')
    def handler(req):
        return answer
    return handler


@pytest.fixture
def mode():
    def set_mode(value):
        CONF.set_override('response_validation', value, group='api')
    yield set_mode
    CONF.clear_override('response_validation', group='api')


def test_an_answer_as_declared_passes(mode):
    mode('error')
    ok = wsgi.json_response({'thing': {'id': 'a'}})
    assert _handler(ok)(_request('3.2')) is ok
    empty = wsgi.empty_response(204)
    assert _handler(empty)(_request('3.5')) is empty


@pytest.mark.parametrize('version,answer,problem', [
    ('3.2', wsgi.json_response({'thing': {}}),
     "at thing: 'id' is a required property"),
    ('3.2', wsgi.json_response({'thing': {'id': 'a', 'more': 1}}),
     'at thing: Additional properties are not allowed'),
    ('3.2', wsgi.json_response({'thing': {'id': 'a'}}, status=202),
     'its status is 202, not 200'),
    ('3.5', wsgi.json_response({'thing': {'id': 'a'}}, status=204),
     'it has a body, and none is declared'),
    ('3.2', wsgi.empty_response(200), 'it has no body, and one is declared'),
])
def test_an_answer_not_as_declared_is_a_500_that_says_how(mode, version,
                                                          answer, problem):
    mode('error')
    with pytest.raises(fault.HTTPError) as caught:
        _handler(answer)(_request(version))
    assert caught.value.status == 500
    assert caught.value.code == responses.RESPONSE_INVALID
    assert ('The response of GET /v3/things/1 at microversion %s is not '
            'what the API declares: %s' % (version, problem)) in \
        caught.value.message


def test_warn_logs_and_answers_and_ignore_does_not_look(mode, caplog):
    wrong = wsgi.json_response({'thing': {}})
    mode('warn')
    assert _handler(wrong)(_request('3.0')) is wrong
    assert "'id' is a required property" in caplog.text
    caplog.clear()
    mode('ignore')
    assert _handler(wrong)(_request('3.0')) is wrong
    assert caplog.text == ''


def test_errors_a_handler_answers_itself_are_not_its_shape(mode):
    mode('error')
    refusal = fault.error_response(404, 'no such thing')
    assert _handler(refusal)(_request('3.0')) is refusal


def test_a_declaration_checks_its_schema():
    with pytest.raises(Exception, match='is not valid'):
        responses.declare({'type': 'no such type'})
