from enum import StrEnum


class ReadinessResponse503Status(StrEnum):
    DRAINING = "draining"
    STORE_NOT_WRITABLE = "store not writable"

    def __str__(self) -> str:
        return str(self.value)
