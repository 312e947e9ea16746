from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.entity_ref import EntityRef
    from ..models.id_map import IDMap
    from ..models.import_result_clone_type_0 import ImportResultCloneType0
    from ..models.import_result_created import ImportResultCreated
    from ..models.import_result_linked import ImportResultLinked


T = TypeVar("T", bound="ImportResult")


@_attrs_define
class ImportResult:
    """The clone answer (`source` is the document's root and ref), plus `conflicts` for a dry run. Its
    own schema rather than `CloneResult` and more: a clone's dry-run `conflicts` are unique clashes
    (objects), an import's are the shared objects it would not find (strings).

        Attributes:
            source (EntityRef):
            clone (ImportResultCloneType0 | None): The new root (as `EntityRef`); null for a dry run.
            created (ImportResultCreated): Objects made (or, for a dry run, that would be made) per entity; non-zero counts
                only.
            linked (ImportResultLinked): Distinct shared objects the import links to, per entity; non-zero counts only.
            dry_run (bool): Whether this was a dry run (nothing written).
            ids (IDMap | Unset):
            conflicts (list[str] | Unset): Dry run only; every shared object the import would not find.
    """

    source: EntityRef
    clone: ImportResultCloneType0 | None
    created: ImportResultCreated
    linked: ImportResultLinked
    dry_run: bool
    ids: IDMap | Unset = UNSET
    conflicts: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.import_result_clone_type_0 import ImportResultCloneType0

        source = self.source.to_dict()

        clone: dict[str, Any] | None
        if isinstance(self.clone, ImportResultCloneType0):
            clone = self.clone.to_dict()
        else:
            clone = self.clone

        created = self.created.to_dict()

        linked = self.linked.to_dict()

        dry_run = self.dry_run

        ids: dict[str, Any] | Unset = UNSET
        if not isinstance(self.ids, Unset):
            ids = self.ids.to_dict()

        conflicts: list[str] | Unset = UNSET
        if not isinstance(self.conflicts, Unset):
            conflicts = self.conflicts

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
        if ids is not UNSET:
            field_dict["ids"] = ids
        if conflicts is not UNSET:
            field_dict["conflicts"] = conflicts

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.entity_ref import EntityRef
        from ..models.id_map import IDMap
        from ..models.import_result_clone_type_0 import ImportResultCloneType0
        from ..models.import_result_created import ImportResultCreated
        from ..models.import_result_linked import ImportResultLinked

        d = dict(src_dict)
        source = EntityRef.from_dict(d.pop("source"))

        def _parse_clone(data: object) -> ImportResultCloneType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                clone_type_0 = ImportResultCloneType0.from_dict(data)

                return clone_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImportResultCloneType0 | None, data)

        clone = _parse_clone(d.pop("clone"))

        created = ImportResultCreated.from_dict(d.pop("created"))

        linked = ImportResultLinked.from_dict(d.pop("linked"))

        dry_run = d.pop("dryRun")

        _ids = d.pop("ids", UNSET)
        ids: IDMap | Unset
        if isinstance(_ids, Unset):
            ids = UNSET
        else:
            ids = IDMap.from_dict(_ids)

        conflicts = cast(list[str], d.pop("conflicts", UNSET))

        import_result = cls(
            source=source,
            clone=clone,
            created=created,
            linked=linked,
            dry_run=dry_run,
            ids=ids,
            conflicts=conflicts,
        )

        import_result.additional_properties = d
        return import_result

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
