"""Layer "cel": the CRD's ``x-kubernetes-validations`` rules, evaluated as the API server does.

The object is walked alongside the schema; at every node that carries rules, each rule runs with
``self`` = the node's value. Transition rules (those naming ``oldSelf``) run only on update and
only where the old object has a correlated value (same property, same map key, same list-map
key); with ``optionalOldSelf: true`` they always run and ``oldSelf`` is an optional value.

A failed rule gives the API server's text (kube-apiserver 1.35 and later):
``Invalid value: <message>`` on an object or array node, ``Invalid value: <value>: <message>``
on a scalar (the rule's ``message``, its ``messageExpression`` result, or ``failed rule:
<rule>``; ``reason`` selects ``Forbidden`` / ``Required value`` / ``Duplicate value``), at the
node's path plus the rule's ``fieldPath``. Servers up to 1.34 printed the schema type where the
value is (``Invalid value: "object": <message>``). An evaluation error (a missing key, a bad overload) is, as on the server, a
validation error: ``Invalid value: "<type>": <error> evaluating rule: <rule>`` (code
``cel-eval-error``). A rule this environment cannot compile or that calls a function it does not
provide is reported as a warning (code ``cel-unsupported``), never silently passed.

Speed: rules compile once, lazily (cached by the rule dict's ``id``); only subtrees that carry
rules are walked; and ``self`` is reduced to the fields a rule names when that cannot change its
result (every use of a variable is a field selection), so large pod templates are not converted.
"""

from __future__ import annotations

import re
from typing import Any

from kubectl_dgd.core.findings import Finding, RuleRef
from kubectl_dgd.core.paths import child, index
from kubectl_dgd.core.validate import cel_env, derived
from kubectl_dgd.core.validate.fielderr import go_value
from kubectl_dgd.core.validate.schema import keyword_below, one_line

_MISSING: Any = object()
_REASONS = {
    "FieldValueForbidden": "Forbidden",
    "FieldValueRequired": "Required value",
    "FieldValueDuplicate": "Duplicate value",
}


class CompiledRule:
    """One rule, compiled on first use; a bundled rule's facts come from derived.py, and its
    program is then compiled only when the rule must run (a transition rule on create never)."""

    __slots__ = (
        "_program",
        "compile_error",
        "field_path",
        "functions",
        "keep",
        "message",
        "message_functions",
        "message_program",
        "optional_old",
        "reason",
        "rule",
        "transition",
    )

    def __init__(self, raw: dict[str, Any]) -> None:
        rule = raw.get("rule")
        self.rule: str = rule.strip() if isinstance(rule, str) else ""
        message = raw.get("message")
        self.message: str = message.strip() if isinstance(message, str) else ""
        self.optional_old: bool = raw.get("optionalOldSelf") is True
        reason = raw.get("reason")
        self.reason: str | None = reason if isinstance(reason, str) else None
        field_path = raw.get("fieldPath")
        self.field_path: str = field_path if isinstance(field_path, str) else ""
        self._program: Any = None
        self.message_program: Any = None
        self.functions: dict[str, Any] = {}
        self.message_functions: dict[str, Any] = {}
        self.compile_error: str | None = None
        self.transition = False
        self.keep: tuple[frozenset[str], bool] | None = None
        expression = raw.get("messageExpression")
        has_expression = isinstance(expression, str) and bool(expression.strip())
        facts = None if has_expression else derived.RULE_FACTS.get(self.rule)
        if facts is not None and self._take(facts):
            return
        self._program, self.compile_error, facts = _compile(self.rule)
        if facts is None:
            return
        self._take(facts)
        if has_expression:
            assert isinstance(expression, str)
            try:
                self.message_program = cel_env.library().compile(expression)
                self.message_functions = _needed(self.message_program.functions())
            except Exception:
                self.message_program = None  # the server falls back to the static message

    def _take(self, facts: list[Any]) -> bool:
        """Adopt a rule's facts (as ``rule_facts`` gives them); False for another shape."""
        try:
            transition, functions, fields, deep = facts
            self.functions = {f: cel_env.EXTENSION_FUNCTIONS[f] for f in functions}
        except (TypeError, ValueError, KeyError):
            return False
        self.transition = transition is True
        self.keep = None if fields is None else (frozenset(fields), deep is True)
        return True

    def ensure_compiled(self) -> None:
        """Compile a rule known by its facts alone; ``compile_error`` says if that failed."""
        if self._program is None and self.compile_error is None:
            self._program, self.compile_error = _program_of(self.rule)

    @property
    def program(self) -> Any:
        """The compiled rule; None (with ``compile_error`` set) if it does not compile."""
        self.ensure_compiled()
        return self._program


def _compile(rule: str) -> tuple[Any, str | None, list[Any] | None]:
    """(program, None, facts) for a rule the offline environment can run, else (program or
    None, the reason, None). Facts: [names oldSelf, extension functions, fields, deep]."""
    program, error = _program_of(rule)
    if program is None:
        return None, error, None
    try:
        variables = set(program.variables())
        functions = program.functions()
    except Exception as err:  # the library raises ValueError/RuntimeError on bad input
        return None, f"compilation failed: {_first_line(str(err))}", None
    missing = sorted(
        f for f in functions if not cel_env.is_operator(f) and f not in cel_env.PROVIDED_FUNCTIONS
    )
    if missing:
        return program, f"function not available offline: {', '.join(missing)}", None
    keep = _fields_used(rule, variables)
    fields = None if keep is None else sorted(keep[0])
    deep = None if keep is None else keep[1]
    return program, None, ["oldSelf" in variables, sorted(_needed(functions)), fields, deep]


def _program_of(rule: str) -> tuple[Any, str | None]:
    try:
        return cel_env.library().compile(rule), None
    except Exception as err:  # the library raises ValueError/RuntimeError on bad input
        return None, f"compilation failed: {_first_line(str(err))}"


def rule_facts(rule: str) -> list[Any] | None:
    """What derived.py ships for one rule (from a fresh compile), None if it cannot run offline."""
    return _compile(rule.strip())[2]


def _needed(functions: list[str]) -> dict[str, Any]:
    """The extension functions a program calls (registering all of them slows every call)."""
    return {
        f: cel_env.EXTENSION_FUNCTIONS[f] for f in functions if f in cel_env.EXTENSION_FUNCTIONS
    }


_RULES: dict[int, tuple[Any, list[CompiledRule]]] = {}
_RULED: dict[int, tuple[Any, _Ruled]] = {}


def compiled_rules(schema: dict[str, Any]) -> list[CompiledRule]:
    """The compiled rules of one schema node (cached by identity)."""
    hit = _RULES.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    raw = schema.get("x-kubernetes-validations")
    rules = [CompiledRule(r) for r in raw if isinstance(r, dict)] if isinstance(raw, list) else []
    _RULES[id(schema)] = (schema, rules)
    return rules


def _rules_below(schema: dict[str, Any]) -> bool:
    return keyword_below(schema, "x-kubernetes-validations")


class _Ruled:
    """A schema node's rules and the children under which rules live (what the walk visits)."""

    __slots__ = ("additional", "declared", "items", "properties", "schema")

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        self.declared = frozenset(props)
        self.properties = [
            (k, s) for k, s in props.items() if isinstance(s, dict) and _rules_below(s)
        ]
        add = schema.get("additionalProperties")
        self.additional = add if isinstance(add, dict) and _rules_below(add) else None
        items = schema.get("items")
        self.items = items if isinstance(items, dict) and _rules_below(items) else None

    @property
    def rules(self) -> list[CompiledRule]:
        return compiled_rules(self.schema) if self.schema.get("x-kubernetes-validations") else []


def _ruled(schema: dict[str, Any]) -> _Ruled:
    hit = _RULED.get(id(schema))
    if hit is not None and hit[0] is schema:
        return hit[1]
    result = _Ruled(schema)
    _RULED[id(schema)] = (schema, result)
    return result


# The scan's patterns, as text: ``re`` compiles them at first use (and caches them), which for
# the bundled rules is never, their facts being shipped (derived.py).
_STRING = r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\""
_SELECTED = r"\.\s*([A-Za-z_][A-Za-z0-9_]*)"
_LITERAL_SIDE = (
    r'(""|\b\d+(\.\d+)?u?|\btrue|\bfalse|\bnull)\s*[!=]=|[!=]=\s*(""|-?\d|true\b|false\b|null\b)'
)


def _fields_used(rule: str, variables: set[str]) -> tuple[frozenset[str], bool] | None:
    """Field names a rule selects, when every use of its variables is a field selection.

    Then ``self`` may be cut down to those fields without changing the result; None when a
    variable is used whole (compared, indexed, passed, unwrapped from an optional). The flag says
    the cut may go deeper than the first level: true when no object can be compared whole (every
    ``==``/``!=`` has a literal side and there is no ``in``), so nested objects keep only the
    selected fields too.
    """
    text = re.sub(_STRING, '""', rule)
    if re.search(r"\.\s*(value|orValue|or)\s*\(|\.\?|\[\?", text):
        return None
    for name in variables:
        for match in re.finditer(rf"(?<![\w.]){re.escape(name)}\b", text):
            rest = text[match.end() :].lstrip()
            if not rest.startswith("."):
                if rest.startswith(",") and text[: match.start()].rstrip().endswith("("):
                    continue  # the variable a macro binds, e.g. all(c, ...)
                return None
    comparisons = len(re.findall(r"[!=]=", text))
    deep = re.search(r"\bin\b", text) is None and comparisons == len(
        re.findall(_LITERAL_SIDE, text)
    )
    return frozenset(re.findall(_SELECTED, text)), deep


def _cut(
    value: Any, schema: dict[str, Any], keep: frozenset[str], deep: bool, depth: int = 0
) -> Any:
    """``value`` with only the ``keep`` fields of its objects: the first level, or every level.

    Only objects with declared properties are cut; map keys are data and always stay.
    """
    props = schema.get("properties")
    if isinstance(value, dict) and isinstance(props, dict):
        if not deep or depth > 50:
            return {k: v for k, v in value.items() if k in keep}
        return {
            k: _cut(v, props[k], keep, deep, depth + 1) if isinstance(props.get(k), dict) else v
            for k, v in value.items()
            if k in keep
        }
    if isinstance(value, dict) and deep and isinstance(schema.get("additionalProperties"), dict):
        sub = schema["additionalProperties"]
        return {k: _cut(v, sub, keep, deep, depth + 1) for k, v in value.items()}
    items = schema.get("items")
    if (
        isinstance(value, list)
        and isinstance(items, dict)
        and (deep or isinstance(items.get("properties"), dict))
    ):
        return [_cut(x, items, keep, deep, depth + 1) for x in value]
    return value


def _sts_type(schema: dict[str, Any]) -> str:
    t = schema.get("type")
    return t if isinstance(t, str) else ""


def _field_path(base: str, relative: str) -> str:
    """The node path extended by a rule's ``fieldPath`` (``.a.b['c']``, ``.list[0]``)."""
    path = base
    for match in re.finditer(r"\.([A-Za-z0-9_-]+)|\['([^']*)'\]|\[(\d+)\]", relative):
        name, quoted, number = match.groups()
        if name is not None:
            path = child(path, name)
        elif quoted is not None:
            path = child(path, quoted)
        else:
            path = index(path, int(number))
    return path


_OUTCOMES: dict[tuple[int, str], tuple[str | None, str | None]] = {}
_OUTCOMES_MAX = 50_000


class _Run:
    __slots__ = ("out", "updating")

    def __init__(self, updating: bool) -> None:
        self.out: list[Finding] = []
        self.updating = updating

    def walk(self, value: Any, old: Any, schema: dict[str, Any], path: str, at: str = "") -> None:
        """``path`` is the object's field path; ``at`` the schema's, as ``all_rules`` names it
        (a shared subtree of the derived schema is one node at several places)."""
        if value is None or not _rules_below(schema):
            return
        ruled = _ruled(schema)
        for rule in ruled.rules:
            self.evaluate(rule, value, old, schema, path, at)
        if isinstance(value, dict):
            old_map = old if isinstance(old, dict) else {}
            for key, sub in ruled.properties:
                if key in value:
                    old_value = old_map.get(key, _MISSING)
                    self.walk(value[key], old_value, sub, child(path, key), child(at, key))
            extra = ruled.additional
            if extra is not None:
                for key, item in value.items():
                    if key not in ruled.declared:
                        old_item = old_map.get(key, _MISSING)
                        self.walk(item, old_item, extra, child(path, str(key)), f"{at}[*]")
        elif isinstance(value, list) and ruled.items is not None:
            olds = self.correlate(value, old, schema)
            for i, item in enumerate(value):
                self.walk(item, olds[i], ruled.items, index(path, i), f"{at}[*]")

    @staticmethod
    def correlate(value: list[Any], old: Any, schema: dict[str, Any]) -> list[Any]:
        """Old items matched by list-map keys; other lists have no correlation (atomic)."""
        keys = schema.get("x-kubernetes-list-map-keys")
        if (
            schema.get("x-kubernetes-list-type") != "map"
            or not isinstance(keys, list)
            or not isinstance(old, list)
        ):
            return [_MISSING] * len(value)
        by_key: dict[str, Any] = {}
        for item in old:
            if isinstance(item, dict):
                by_key.setdefault(repr([item.get(k) for k in keys]), item)
        return [
            by_key.get(repr([x.get(k) for k in keys]), _MISSING)
            if isinstance(x, dict)
            else _MISSING
            for x in value
        ]

    def evaluate(
        self,
        rule: CompiledRule,
        value: Any,
        old: Any,
        schema: dict[str, Any],
        path: str,
        at: str = "",
    ) -> None:
        # A transition rule is skipped on create and where the old object has no value here.
        skipped = (
            rule.transition
            and not rule.optional_old
            and (old is _MISSING or old is None or not self.updating)
        )
        if not skipped:
            rule.ensure_compiled()
        if rule.compile_error is not None:
            self.out.append(
                Finding(
                    "warning",
                    "cel",
                    path,
                    one_line(f"rule not evaluated ({rule.compile_error}): {rule.rule}"),
                    "cel-unsupported",
                )
            )
            return
        variables: dict[str, Any] = {}
        if rule.transition or rule.optional_old:
            if rule.optional_old:
                opt = cel_env.library().OptionalValue
                present = old is not _MISSING and old is not None
                variables["oldSelf"] = (
                    opt.of(self.shape(old, schema, rule)) if present else opt.none()
                )
            elif skipped:
                return  # transition rules need an old value; skipped on create, as on the server
            else:
                variables["oldSelf"] = self.shape(old, schema, rule)
        variables["self"] = self.shape(value, schema, rule)
        kind = _sts_type(schema)
        # A rule's outcome depends only on its input: many graphs give the same one (a
        # component's reduced ``self``), so outcomes are memoised on the input's repr, which is
        # exact for the plain values a manifest is. Never with an optional oldSelf, whose repr
        # is an object address that a later object may reuse.
        key = None if rule.optional_old else (id(rule), repr(variables))
        outcome = _OUTCOMES.get(key) if key is not None else None
        if outcome is None:
            outcome = self.outcome(rule, variables)
            if key is not None:
                if len(_OUTCOMES) >= _OUTCOMES_MAX:
                    _OUTCOMES.clear()  # bounded: memory stays flat on any stream
                _OUTCOMES[key] = outcome
        error, message = outcome
        if error is not None:
            detail = f"{error} evaluating rule: {rule.message or rule.rule}"
            self.out.append(
                Finding(
                    "error",
                    "cel",
                    path,
                    one_line(f'Invalid value: "{kind}": {detail}'),
                    "cel-eval-error",
                )
            )
            return
        if message is None:
            return
        where = _field_path(path, rule.field_path) if rule.field_path else path
        label = _REASONS.get(rule.reason or "")
        # Since Kubernetes 1.35 a failed rule shows no value for an object or array node and
        # the value itself for a scalar (until 1.34: the schema type, "object", for every node).
        shown = "" if kind in ("object", "array") else f"{go_value(value)}: "
        if label == "Duplicate value":
            text_msg = f"Duplicate value: {shown[:-2]}" if shown else "Duplicate value"
        elif label is not None:
            text_msg = f"{label}: {message}"
        else:
            text_msg = f"Invalid value: {shown}{message}"
        ref = RuleRef(rule_id(at, rule.rule), rule.message, rule.rule)
        self.out.append(Finding("error", "cel", where, one_line(text_msg), "cel-rule", rule=ref))

    def outcome(
        self, rule: CompiledRule, variables: dict[str, Any]
    ) -> tuple[str | None, str | None]:
        """(evaluation error, None), (None, the failure message), or (None, None) when it holds."""
        ok, error = self.run(rule.program, variables, rule.functions)
        if error is None and not isinstance(ok, bool):
            error = f"rule did not evaluate to a boolean: {type(ok).__name__}"
        if error is not None:
            return error, None
        if ok is True:
            return None, None
        message = rule.message or f"failed rule: {rule.rule}"
        if rule.message_program is not None:
            text, msg_error = self.run(rule.message_program, variables, rule.message_functions)
            if msg_error is None and isinstance(text, str) and text.strip() and "\n" not in text:
                message = text.strip()
        return None, message

    @staticmethod
    def shape(value: Any, schema: dict[str, Any], rule: CompiledRule) -> Any:
        return value if rule.keep is None else _cut(value, schema, *rule.keep)

    def run(
        self, program: Any, variables: dict[str, Any], functions: dict[str, Any]
    ) -> tuple[Any, str | None]:
        """(result, None) or (None, the server-style error text). Never raises."""
        cel_env.EvalErrors.reset()
        try:
            context = cel_env.library().Context(variables, functions) if functions else variables
            result = program.execute(context)
        except KeyError as err:
            return None, f"no such key: {err.args[0] if err.args else ''}"
        except IndexError as err:
            return None, str(err) or "index out of bounds"
        except ZeroDivisionError:
            return None, "division by zero"
        except TypeError as err:
            text = str(err)
            return None, "no such overload" if text.startswith("No such overload") else text
        except (ValueError, RuntimeError, OverflowError, RecursionError) as err:
            return None, _first_line(str(err)) or type(err).__name__
        except Exception as err:  # the extension may raise anything; a rule error must not escape
            return None, _first_line(str(err)) or type(err).__name__
        if cel_env.EvalErrors.messages:
            return None, cel_env.EvalErrors.messages[0]
        return result, None


def rule_id(schema_path: str, expression: str) -> str:
    """A CRD rule's stable id: where it sits in the schema (``all_rules``' notation) and the
    first 8 hex digits of the SHA-256 of its expression, whitespace collapsed. The same rule
    keeps it across runs and releases; a changed check gets a new one. Not its position among
    its node's rules, which a release adding a rule before it would shift."""
    from kubectl_dgd.core.sha256 import hexdigest

    digest = hexdigest(" ".join(expression.split()))[:8]
    return f"{schema_path or '(root)'}:{digest}"


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def check(obj: dict[str, Any], old: dict[str, Any] | None, schema: dict[str, Any]) -> list[Finding]:
    """Findings of every CEL rule in ``schema`` for ``obj`` (``old`` = the live object on update)."""
    if not isinstance(schema, dict) or not isinstance(obj, dict):
        return []
    run = _Run(updating=old is not None)
    try:
        run.walk(obj, old if isinstance(old, dict) else _MISSING, schema, "")
    except RecursionError:
        run.out.append(
            Finding("error", "cel", "", "nesting too deep to evaluate CEL rules", "cel-eval-error")
        )
    return run.out


def all_rules(schema: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every ``x-kubernetes-validations`` rule below ``schema`` with its schema location."""
    found: list[tuple[str, dict[str, Any]]] = []

    def visit(node: Any, where: str, depth: int) -> None:
        if not isinstance(node, dict) or depth > 200:
            return
        rules = node.get("x-kubernetes-validations")
        if isinstance(rules, list):
            found.extend((where, r) for r in rules if isinstance(r, dict))
        props = node.get("properties")
        if isinstance(props, dict):
            for key, sub in props.items():
                visit(sub, child(where, str(key)), depth + 1)
        visit(node.get("items"), f"{where}[*]", depth + 1)
        visit(node.get("additionalProperties"), f"{where}[*]", depth + 1)

    visit(schema, "", 0)
    return found
