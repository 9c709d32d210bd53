//! A fight's events as JSON, derived with serde from each ruleset's `Event` type, and their JSON
//! Schema, derived with schemars from the same type.
//!
//! Every event is an object whose `event` key names its kind (the variant's name in snake case)
//! and whose other keys are the variant's fields, serialized as their types derive it. A
//! combatant (a [`fray_engine::CombatantId`]) or a side ([`fray_engine::SideId`]) is written as its *name* —
//! one of the log header's `combatants` or `sides` — by [`to_json`], a serializer that knows the
//! roster; the schema says so. Other indices (an item, a
//! weapon) are indices into the combatant's list in the scenario file. The `end` event is the
//! same in every ruleset ([`crate::end_json`]), and [`schema`] adds it to each ruleset's schema.
//!
//! The schemas are committed under `docs/schema/` and the ruleset pages of the user guide list
//! the events from them; `cargo run -p fray-cli -- docs --out docs/` regenerates both, and a test
//! fails when they differ from what it writes.

use serde::ser::{self, Serialize, Serializer};
use serde_json::{Value, json};

/// The names a fight's JSON gives combatants and sides: the roster.
#[derive(Clone, Copy)]
pub struct Roster<'a> {
    /// A combatant's name from its index.
    pub combatant: &'a dyn Fn(usize) -> &'a str,
    /// The sides' names, in order.
    pub sides: &'a [String],
}

/// `event` as JSON, each combatant and side in it named from `roster`.
pub fn to_json<T: Serialize + ?Sized>(event: &T, roster: Roster<'_>) -> Value {
    // A serialization error would be a bug in a derive (an unrepresentable variant): the JSON
    // then says so rather than the fight stopping.
    event
        .serialize(Named { inner: serde_json::value::Serializer, roster })
        .unwrap_or_else(|e| json!({ "event": "unserializable", "error": e.to_string() }))
}

/// A line of the log: `text`, and `event` as JSON ([`to_json`]), or the shared `end` event
/// ([`crate::end_json`], its length in `unit`) when `ended` holds the fight's result.
pub fn line<E: Serialize>(
    event: &E,
    text: Option<String>,
    ended: Option<&fray_engine::FightResult>,
    unit: &str,
    roster: Roster<'_>,
) -> crate::Line {
    let json = match ended {
        Some(result) => crate::end_json(roster.sides, result, unit),
        None => to_json(event, roster),
    };
    crate::Line { text, json }
}

/// The schema of another kind of line a ruleset's log has besides its events (a status line).
pub type Extra = fn(&mut schemars::SchemaGenerator) -> schemars::Schema;

/// The JSON Schema of ruleset `ruleset`'s events `E` (every variant but its end, which is
/// serialized apart) with the shared `end` event added, its length in `unit` ("rounds", "turns",
/// "ticks"), and the `extra` lines of its log.
pub fn schema<E: schemars::JsonSchema>(ruleset: &str, unit: &str, extra: &[Extra]) -> Value {
    let mut generator = schemars::generate::SchemaSettings::draft2020_12().for_serialize().into_generator();
    let extra: Vec<Value> = extra.iter().map(|schema| schema(&mut generator).to_value()).collect();
    let mut schema = generator.into_root_schema_for::<E>().to_value();
    let end = json!({
        "description": "The fight is over: the same in every ruleset.",
        "type": "object",
        "properties": {
            "event": { "type": "string", "const": "end" },
            "outcome": { "type": "string", "description": "How it ended, in words: \"SIDE win(s)\", \"mutual destruction\" or \"stalemate at the cap\"." },
            "winner": { "type": ["string", "null"], "description": "The winning side's name (one of the header's `sides`); null for mutual destruction or a stalemate." },
            "length": { "type": "integer", "minimum": 0, "description": format!("The fight's length in {unit}.") },
            "unit": { "type": "string", "const": unit, "description": "The unit of `length`." },
            unit: { "type": "integer", "minimum": 0, "description": "The length again, under the unit's name." },
        },
        "required": ["event", "outcome", "winner", "length", "unit", unit],
    });
    if let Some(variants) = schema.get_mut("oneOf").and_then(Value::as_array_mut) {
        variants.push(end);
        // An extra kind of line is an enum of one variant, tagged like the events: its variants.
        for schema in extra {
            match schema.get("oneOf").and_then(Value::as_array) {
                Some(inner) => variants.extend(inner.iter().cloned()),
                None => variants.push(schema),
            }
        }
    }
    if let Some(object) = schema.as_object_mut() {
        object.insert("title".into(), json!(format!("fray {ruleset} fight events")));
        object.insert(
            "description".into(),
            json!(format!(
                "One event of a `{ruleset}` fight, a line of `fray fight --json` after the header. \
                 Combatants and sides are named as in the header's `combatants` and `sides`."
            )),
        );
    }
    schema
}

/// Itemised terms of a total as the events write them: `[["skill", 4], ["OQ", 1], …]`, the
/// non-zero terms only, each named as the text log names it.
pub fn serialize_terms<'t, S: Serializer>(
    terms: impl IntoIterator<Item = (&'t str, i32)>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(terms.into_iter().filter(|t| t.1 != 0))
}

/// The schema of [`serialize_terms`]' lists.
pub fn terms_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "array",
        "description": "The non-zero terms of a total, each a name and a signed value.",
        "items": {
            "type": "array",
            "prefixItems": [{ "type": "string" }, { "type": "integer" }],
            "minItems": 2,
            "maxItems": 2
        }
    })
}

/// Named terms, written by [`serialize_terms`].
pub struct TermList(pub Vec<(&'static str, i32)>);

impl Serialize for TermList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_terms(self.0.iter().copied(), serializer)
    }
}

impl schemars::JsonSchema for TermList {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Terms".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        terms_schema(generator)
    }
}

/// Implements `Serialize` and `JsonSchema` for a packed type of itemised terms: `$terms` gives
/// its named terms from `self` (written by [`serialize_terms`]).
macro_rules! terms_json {
    ($ty:ty, |$this:ident| $terms:expr) => {
        impl serde::Serialize for $ty {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let $this = self;
                $crate::events::serialize_terms($terms, serializer)
            }
        }

        impl schemars::JsonSchema for $ty {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                "Terms".into()
            }

            fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
                $crate::events::terms_schema(generator)
            }
        }
    };
}
pub(crate) use terms_json;

/// A serializer that writes each [`fray_engine::CombatantId`] and [`fray_engine::SideId`] as its name from the
/// roster and passes everything else to `inner`.
struct Named<'a, S> {
    inner: S,
    roster: Roster<'a>,
}

/// A value serialized through [`Named`].
struct Wrap<'v, 'r, T: ?Sized> {
    value: &'v T,
    roster: Roster<'r>,
}

impl<T: Serialize + ?Sized> Serialize for Wrap<'_, '_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(Named { inner: serializer, roster: self.roster })
    }
}

/// The index a `CombatantId` or `SideId` holds.
fn index_of<T: Serialize + ?Sized, E: ser::Error>(value: &T) -> Result<usize, E> {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_u64())
        .map(|i| i as usize)
        .ok_or_else(|| E::custom("an id that is not an index"))
}

/// Forwards serializer methods that take a plain value to the inner serializer.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*);)*) => {
        $(fn $method(self, $($arg: $ty),*) -> Result<S::Ok, S::Error> { self.inner.$method($($arg),*) })*
    };
}

impl<'a, S: Serializer> Serializer for Named<'a, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<'a, S::SerializeSeq>;
    type SerializeTuple = Compound<'a, S::SerializeTuple>;
    type SerializeTupleStruct = Compound<'a, S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<'a, S::SerializeTupleVariant>;
    type SerializeMap = Compound<'a, S::SerializeMap>;
    type SerializeStruct = Compound<'a, S::SerializeStruct>;
    type SerializeStructVariant = Compound<'a, S::SerializeStructVariant>;

    forward! {
        serialize_bool(v: bool);
        serialize_i8(v: i8);
        serialize_i16(v: i16);
        serialize_i32(v: i32);
        serialize_i64(v: i64);
        serialize_i128(v: i128);
        serialize_u8(v: u8);
        serialize_u16(v: u16);
        serialize_u32(v: u32);
        serialize_u64(v: u64);
        serialize_u128(v: u128);
        serialize_f32(v: f32);
        serialize_f64(v: f64);
        serialize_char(v: char);
        serialize_str(v: &str);
        serialize_bytes(v: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.inner.serialize_some(&Wrap { value, roster: self.roster })
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        let roster = self.roster;
        match name {
            "CombatantId" => self.inner.serialize_str((roster.combatant)(index_of(value)?)),
            "SideId" => {
                let side = roster.sides.get(index_of(value)?).map_or("", String::as_str);
                self.inner.serialize_str(side)
            }
            _ => self.inner.serialize_newtype_struct(name, &Wrap { value, roster }),
        }
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.inner.serialize_newtype_variant(name, index, variant, &Wrap { value, roster: self.roster })
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Ok(Compound { inner: self.inner.serialize_seq(len)?, roster: self.roster })
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        Ok(Compound { inner: self.inner.serialize_tuple(len)?, roster: self.roster })
    }

    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeTupleStruct, S::Error> {
        Ok(Compound { inner: self.inner.serialize_tuple_struct(name, len)?, roster: self.roster })
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        Ok(Compound { inner: self.inner.serialize_tuple_variant(name, index, variant, len)?, roster: self.roster })
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        Ok(Compound { inner: self.inner.serialize_map(len)?, roster: self.roster })
    }

    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Self::SerializeStruct, S::Error> {
        Ok(Compound { inner: self.inner.serialize_struct(name, len)?, roster: self.roster })
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        Ok(Compound { inner: self.inner.serialize_struct_variant(name, index, variant, len)?, roster: self.roster })
    }
}

/// A sequence, tuple, map or struct being serialized through [`Named`]: each element is wrapped.
struct Compound<'a, C> {
    inner: C,
    roster: Roster<'a>,
}

/// Implements a compound serializer trait whose elements are wrapped: `$element` adds one
/// (with a key when `$key` is given), `end` finishes.
macro_rules! compound {
    ($trait:ident, $element:ident $(, $key:ident: $key_ty:ty)?) => {
        impl<C: ser::$trait> ser::$trait for Compound<'_, C> {
            type Ok = C::Ok;
            type Error = C::Error;
            fn $element<T: Serialize + ?Sized>(&mut self, $($key: $key_ty,)? value: &T) -> Result<(), C::Error> {
                self.inner.$element($($key,)? &Wrap { value, roster: self.roster })
            }
            fn end(self) -> Result<C::Ok, C::Error> {
                self.inner.end()
            }
        }
    };
}

compound!(SerializeSeq, serialize_element);
compound!(SerializeTuple, serialize_element);
compound!(SerializeTupleStruct, serialize_field);
compound!(SerializeTupleVariant, serialize_field);
compound!(SerializeStruct, serialize_field, key: &'static str);
compound!(SerializeStructVariant, serialize_field, key: &'static str);

impl<C: ser::SerializeMap> ser::SerializeMap for Compound<'_, C> {
    type Ok = C::Ok;
    type Error = C::Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), C::Error> {
        self.inner.serialize_key(&Wrap { value: key, roster: self.roster })
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
        self.inner.serialize_value(&Wrap { value, roster: self.roster })
    }
    fn end(self) -> Result<C::Ok, C::Error> {
        self.inner.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fray_engine::{CombatantId, SideId};

    #[derive(serde::Serialize)]
    #[serde(tag = "event", rename_all = "snake_case")]
    enum Sample {
        Hit { by: CombatantId, target: Option<CombatantId>, order: Vec<(CombatantId, u8)>, side: SideId, n: u16 },
    }

    #[test]
    fn combatants_and_sides_are_named_and_other_numbers_kept() {
        let names = ["ann", "bob"];
        let sides = vec!["heroes".to_owned(), "villains".to_owned()];
        let name = |i: usize| names[i];
        let roster = Roster { combatant: &name, sides: &sides };
        let event = Sample::Hit {
            by: CombatantId(1),
            target: Some(CombatantId(0)),
            order: vec![(CombatantId(1), 3)],
            side: SideId(1),
            n: 1,
        };
        assert_eq!(
            to_json(&event, roster),
            json!({"event": "hit", "by": "bob", "target": "ann", "order": [["bob", 3]], "side": "villains", "n": 1})
        );
    }
}
