from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.clone_result_clone_type_0 import CloneResultCloneType0
    from ..models.clone_result_conflicts_item import CloneResultConflictsItem
    from ..models.clone_result_created import CloneResultCreated
    from ..models.clone_result_linked import CloneResultLinked
    from ..models.clone_result_values import CloneResultValues
    from ..models.entity_ref import EntityRef
    from ..models.id_map import IDMap


T = TypeVar("T", bound="CloneResult")


@_attrs_define
class CloneResult:
    """
    Example:
        {'source': {'entity': 'Note', 'id': 42}, 'clone': {'entity': 'Note', 'id': 57}, 'created': {'Item': 1000,
            'ItemData': 1000, 'Note': 1}, 'linked': {'Tag': 120}, 'ids': {'Item': {'100': 2001}, 'Note': {'42': 57}},
            'dryRun': False}

    Attributes:
        source (EntityRef):
        clone (CloneResultCloneType0 | None): The new root (as `EntityRef`); null for a dry run.
        created (CloneResultCreated): Objects made (or, for a dry run, that would be made) per entity; non-zero counts
            only.
        linked (CloneResultLinked): Distinct shared objects the clone links to, per entity; non-zero counts only.
        dry_run (bool): Whether this was a dry run (nothing written).
        clones (list[EntityRef] | None | Unset): Present when the request has `copies`; every copy's new root, in order
            (`clone` is the first); null for a dry run.
        ids (IDMap | list[IDMap] | Unset): Present when `returnIds` is true; per entity, original `_id` (as a string
            key) to clone `_id`. With `copies`, a list of such maps, one per copy, in the order of `clones`.
        values (CloneResultValues | Unset): Dry run only, when the model has `rebuild: suffix` attributes the clone
            would copy: per
            `Entity.attribute`, the values the copies would get ("Onboarding (copy 2)"), in the order
            of their new `_id`s (a root's copies in copy order).
        conflicts (list[CloneResultConflictsItem] | Unset): Dry run only, when the clone would repeat a value a unique
            attribute or a
            `uniqueTogether` group must not hold twice (and so answer 409): every such constraint,
            with the copied objects that would repeat a value. Absent when there is none.
    """

    source: EntityRef
    clone: CloneResultCloneType0 | None
    created: CloneResultCreated
    linked: CloneResultLinked
    dry_run: bool
    clones: list[EntityRef] | None | Unset = UNSET
    ids: IDMap | list[IDMap] | Unset = UNSET
    values: CloneResultValues | Unset = UNSET
    conflicts: list[CloneResultConflictsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.clone_result_clone_type_0 import CloneResultCloneType0
        from ..models.id_map import IDMap

        source = self.source.to_dict()

        clone: dict[str, Any] | None
        if isinstance(self.clone, CloneResultCloneType0):
            clone = self.clone.to_dict()
        else:
            clone = self.clone

        created = self.created.to_dict()

        linked = self.linked.to_dict()

        dry_run = self.dry_run

        clones: list[dict[str, Any]] | None | Unset
        if isinstance(self.clones, Unset):
            clones = UNSET
        elif isinstance(self.clones, list):
            clones = []
            for clones_type_0_item_data in self.clones:
                clones_type_0_item = clones_type_0_item_data.to_dict()
                clones.append(clones_type_0_item)

        else:
            clones = self.clones

        ids: dict[str, Any] | list[dict[str, Any]] | Unset
        if isinstance(self.ids, Unset):
            ids = UNSET
        elif isinstance(self.ids, IDMap):
            ids = self.ids.to_dict()
        else:
            ids = []
            for ids_type_1_item_data in self.ids:
                ids_type_1_item = ids_type_1_item_data.to_dict()
                ids.append(ids_type_1_item)

        values: dict[str, Any] | Unset = UNSET
        if not isinstance(self.values, Unset):
            values = self.values.to_dict()

        conflicts: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.conflicts, Unset):
            conflicts = []
            for conflicts_item_data in self.conflicts:
                conflicts_item = conflicts_item_data.to_dict()
                conflicts.append(conflicts_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "source": source,
                "clone": clone,
                "created": created,
                "linked": linked,
                "dryRun": dry_run,
            }
        )
        if clones is not UNSET:
            field_dict["clones"] = clones
        if ids is not UNSET:
            field_dict["ids"] = ids
        if values is not UNSET:
            field_dict["values"] = values
        if conflicts is not UNSET:
            field_dict["conflicts"] = conflicts

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.clone_result_clone_type_0 import CloneResultCloneType0
        from ..models.clone_result_conflicts_item import CloneResultConflictsItem
        from ..models.clone_result_created import CloneResultCreated
        from ..models.clone_result_linked import CloneResultLinked
        from ..models.clone_result_values import CloneResultValues
        from ..models.entity_ref import EntityRef
        from ..models.id_map import IDMap

        d = dict(src_dict)
        source = EntityRef.from_dict(d.pop("source"))

        def _parse_clone(data: object) -> CloneResultCloneType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                clone_type_0 = CloneResultCloneType0.from_dict(data)

                return clone_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CloneResultCloneType0 | None, data)

        clone = _parse_clone(d.pop("clone"))

        created = CloneResultCreated.from_dict(d.pop("created"))

        linked = CloneResultLinked.from_dict(d.pop("linked"))

        dry_run = d.pop("dryRun")

        def _parse_clones(data: object) -> list[EntityRef] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                clones_type_0 = []
                _clones_type_0 = data
                for clones_type_0_item_data in _clones_type_0:
                    clones_type_0_item = EntityRef.from_dict(clones_type_0_item_data)

                    clones_type_0.append(clones_type_0_item)

                return clones_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[EntityRef] | None | Unset, data)

        clones = _parse_clones(d.pop("clones", UNSET))

        def _parse_ids(data: object) -> IDMap | list[IDMap] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ids_type_0 = IDMap.from_dict(data)

                return ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            ids_type_1 = []
            _ids_type_1 = data
            for ids_type_1_item_data in _ids_type_1:
                ids_type_1_item = IDMap.from_dict(ids_type_1_item_data)

                ids_type_1.append(ids_type_1_item)

            return ids_type_1

        ids = _parse_ids(d.pop("ids", UNSET))

        _values = d.pop("values", UNSET)
        values: CloneResultValues | Unset
        if isinstance(_values, Unset):
            values = UNSET
        else:
            values = CloneResultValues.from_dict(_values)

        _conflicts = d.pop("conflicts", UNSET)
        conflicts: list[CloneResultConflictsItem] | Unset = UNSET
        if _conflicts is not UNSET:
            conflicts = []
            for conflicts_item_data in _conflicts:
                conflicts_item = CloneResultConflictsItem.from_dict(conflicts_item_data)

                conflicts.append(conflicts_item)

        clone_result = cls(
            source=source,
            clone=clone,
            created=created,
            linked=linked,
            dry_run=dry_run,
            clones=clones,
            ids=ids,
            values=values,
            conflicts=conflicts,
        )

        clone_result.additional_properties = d
        return clone_result

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
