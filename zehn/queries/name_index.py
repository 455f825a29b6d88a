"""Internal queries over the graph's name index (``reading.names.name_keys``, written at build).

Each looks entities up by a key through a range index (array properties index their
elements), so a question or a graded sentence reads only the entities that can occur in it,
never every entity of the graph.
"""

from __future__ import annotations

from zehn.queries.spec import NamedQuery, ParamSpec

# every entity row: its node id (the order of a scan of every entity), what the binder needs,
# and whether another entity of another kind has its name
_ENTITY = (
    "id(e) AS node, e.id AS id, e.name AS name, e.kind AS kind, "
    "coalesce(e.aliases, []) AS aliases, coalesce(e.origin, 'catalog') AS origin, "
    "e.namesake AS namesake"
)
KEY_LENGTH = 600  # a key, name or prefix sent; a longer one names nothing and is not sent
_KEYS = ParamSpec("keys", "string_list", "name keys", max_length=KEY_LENGTH)


def _entities(
    name: str, description: str, params: tuple[ParamSpec, ...], match: str, extra: str = ""
) -> NamedQuery:
    """A look-up returning entity rows (``_ENTITY``, then ``extra`` columns)."""
    return NamedQuery(name, description, params, f"{match} RETURN {_ENTITY}{extra}", internal=True)


NAME_INDEX_QUERIES = (
    NamedQuery(
        "name_index_meta",
        "Whether the graph has a name index (its version) and its longest name in tokens.",
        (),
        "MATCH (m:Meta {id: 'graph'}) RETURN m.name_index AS version, m.longest_name AS longest",
        internal=True,
    ),
    _entities(
        "entities_by_name_keys",
        "Entities with a name or alias filed under one of the given binder keys.",
        (_KEYS,),
        "UNWIND $keys AS k MATCH (e:Entity) WHERE k IN e.name_keys WITH DISTINCT e",
        ", e.name_keys AS keys",
    ),
    _entities(
        "entities_by_loose_keys",
        "Entities with a name or alias of the given loose spelling keys.",
        (_KEYS,),
        "UNWIND $keys AS k MATCH (e:Entity) WHERE k IN e.loose_keys WITH DISTINCT e",
        ", e.loose_keys AS keys",
    ),
    _entities(
        "entities_by_ids",
        "The given entities.",
        (ParamSpec("ids", "string_list", "entity ids", max_length=KEY_LENGTH),),
        "UNWIND $ids AS i MATCH (e:Entity {id: i})",
    ),
    _entities(
        "entities_by_head",
        "Up to two entities whose name's last word is the given kind word.",
        (ParamSpec("noun", "string", "a kind word, singular, lower case", max_length=80),),
        "MATCH (e:Entity) WHERE e.head = $noun",
        " ORDER BY node LIMIT 2",
    ),
    _entities(
        "entities_by_lname",
        "Entities with one of the given names (stripped, lower case).",
        (ParamSpec("names", "string_list", "lower-cased names", max_length=KEY_LENGTH),),
        "UNWIND $names AS n MATCH (e:Entity) WHERE e.lname = n",
        ", e.lname AS lname",
    ),
    _entities(
        "entities_named_from",
        "Entities whose lower-cased name starts with a prefix (prefix <= name < after).",
        (
            ParamSpec("prefix", "string", "the prefix", max_length=KEY_LENGTH),
            ParamSpec(
                "after", "string", "the first string after all that start so", max_length=KEY_LENGTH
            ),
        ),
        "MATCH (e:Entity) WHERE e.lname >= $prefix AND e.lname < $after",
        ", e.lname AS lname",
    ),
    NamedQuery(
        "code_like_names",
        "Entities with a code-like name or alias of a length between shortest and longest.",
        (
            ParamSpec("shortest", "integer", "shortest length", minimum=1, maximum=1000),
            ParamSpec("longest", "integer", "longest length", minimum=1, maximum=1000),
        ),
        "UNWIND range($shortest, $longest) AS n MATCH (e:Entity) WHERE n IN e.code_lengths "
        "RETURN DISTINCT id(e) AS node, e.id AS id, e.code_forms AS forms",
        internal=True,
    ),
    _entities(
        "namesake_entities",
        "Every entity whose name an entity of another kind has.",
        (),
        "MATCH (e:Entity) WHERE e.namesake = 1",
    ),
)
