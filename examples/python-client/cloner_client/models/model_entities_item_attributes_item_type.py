from enum import StrEnum


class ModelEntitiesItemAttributesItemType(StrEnum):
    BINARY = "binary"
    BOOLEAN = "boolean"
    DATE = "date"
    DECIMAL = "decimal"
    DOUBLE = "double"
    INTEGER = "integer"
    JSON = "json"
    STRING = "string"
    UUID = "uuid"

    def __str__(self) -> str:
        return str(self.value)
