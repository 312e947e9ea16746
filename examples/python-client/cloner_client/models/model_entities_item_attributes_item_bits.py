from enum import IntEnum


class ModelEntitiesItemAttributesItemBits(IntEnum):
    VALUE_16 = 16
    VALUE_32 = 32

    def __str__(self) -> str:
        return str(self.value)
