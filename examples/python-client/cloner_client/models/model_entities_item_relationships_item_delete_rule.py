from enum import StrEnum


class ModelEntitiesItemRelationshipsItemDeleteRule(StrEnum):
    CASCADE = "cascade"
    DENY = "deny"
    NOACTION = "noAction"
    NULLIFY = "nullify"

    def __str__(self) -> str:
        return str(self.value)
