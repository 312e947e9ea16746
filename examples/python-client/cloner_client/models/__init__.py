"""Contains all the data models used in inputs/outputs"""

from .attachment_clone_request import AttachmentCloneRequest
from .attachment_clone_request_copies_type_1_item import (
    AttachmentCloneRequestCopiesType1Item,
)
from .attachment_clone_request_copies_type_1_item_set import (
    AttachmentCloneRequestCopiesType1ItemSet,
)
from .attachment_clone_request_exclude_item import AttachmentCloneRequestExcludeItem
from .attachment_clone_request_set import AttachmentCloneRequestSet
from .attachment_create import AttachmentCreate
from .attachment_create_under_memo import AttachmentCreateUnderMemo
from .attachment_record import AttachmentRecord
from .attachment_record_blobs import AttachmentRecordBlobs
from .attachment_record_blobs_additional_property import (
    AttachmentRecordBlobsAdditionalProperty,
)
from .attachment_update import AttachmentUpdate
from .binary_value_stored import BinaryValueStored
from .clone_list_item import CloneListItem
from .clone_page import ClonePage
from .clone_request import CloneRequest
from .clone_request_copies_type_1_item import CloneRequestCopiesType1Item
from .clone_request_copies_type_1_item_set import CloneRequestCopiesType1ItemSet
from .clone_request_set import CloneRequestSet
from .clone_result import CloneResult
from .clone_result_clone_type_0 import CloneResultCloneType0
from .clone_result_conflicts_item import CloneResultConflictsItem
from .clone_result_created import CloneResultCreated
from .clone_result_linked import CloneResultLinked
from .clone_result_values import CloneResultValues
from .cloned_from import ClonedFrom
from .entity_ref import EntityRef
from .field_error import FieldError
from .id_map import IDMap
from .id_map_additional_property import IDMapAdditionalProperty
from .import_result import ImportResult
from .import_result_clone_type_0 import ImportResultCloneType0
from .import_result_created import ImportResultCreated
from .import_result_linked import ImportResultLinked
from .item_clone_request import ItemCloneRequest
from .item_clone_request_copies_type_1_item import ItemCloneRequestCopiesType1Item
from .item_clone_request_copies_type_1_item_set import (
    ItemCloneRequestCopiesType1ItemSet,
)
from .item_clone_request_exclude_item import ItemCloneRequestExcludeItem
from .item_clone_request_set import ItemCloneRequestSet
from .item_create import ItemCreate
from .item_data_clone_request import ItemDataCloneRequest
from .item_data_clone_request_copies_type_1_item import (
    ItemDataCloneRequestCopiesType1Item,
)
from .item_data_clone_request_copies_type_1_item_set import (
    ItemDataCloneRequestCopiesType1ItemSet,
)
from .item_data_clone_request_exclude_item import ItemDataCloneRequestExcludeItem
from .item_data_clone_request_set import ItemDataCloneRequestSet
from .item_data_create import ItemDataCreate
from .item_data_record import ItemDataRecord
from .item_data_update import ItemDataUpdate
from .item_record import ItemRecord
from .item_record_lists import ItemRecordLists
from .item_record_lists_additional_property import ItemRecordListsAdditionalProperty
from .item_update import ItemUpdate
from .job import Job
from .job_page import JobPage
from .job_progress import JobProgress
from .job_status import JobStatus
from .list_attachment_response_200 import ListAttachmentResponse200
from .list_item_data_response_200 import ListItemDataResponse200
from .list_item_response_200 import ListItemResponse200
from .list_memo_response_200 import ListMemoResponse200
from .list_note_description_response_200 import ListNoteDescriptionResponse200
from .list_note_response_200 import ListNoteResponse200
from .list_tag_response_200 import ListTagResponse200
from .liveness_response_200 import LivenessResponse200
from .memo_clone_request import MemoCloneRequest
from .memo_clone_request_copies_type_1_item import MemoCloneRequestCopiesType1Item
from .memo_clone_request_copies_type_1_item_set import (
    MemoCloneRequestCopiesType1ItemSet,
)
from .memo_clone_request_exclude_item import MemoCloneRequestExcludeItem
from .memo_clone_request_set import MemoCloneRequestSet
from .memo_create import MemoCreate
from .memo_record import MemoRecord
from .memo_record_lists import MemoRecordLists
from .memo_record_lists_additional_property import MemoRecordListsAdditionalProperty
from .memo_update import MemoUpdate
from .model import Model
from .model_entities_item import ModelEntitiesItem
from .model_entities_item_attributes_item import ModelEntitiesItemAttributesItem
from .model_entities_item_attributes_item_bits import (
    ModelEntitiesItemAttributesItemBits,
)
from .model_entities_item_attributes_item_type import (
    ModelEntitiesItemAttributesItemType,
)
from .model_entities_item_attributes_item_user_info import (
    ModelEntitiesItemAttributesItemUserInfo,
)
from .model_entities_item_relationships_item import ModelEntitiesItemRelationshipsItem
from .model_entities_item_relationships_item_delete_rule import (
    ModelEntitiesItemRelationshipsItemDeleteRule,
)
from .model_entities_item_relationships_item_user_info import (
    ModelEntitiesItemRelationshipsItemUserInfo,
)
from .note_clone_request import NoteCloneRequest
from .note_clone_request_copies_type_1_item import NoteCloneRequestCopiesType1Item
from .note_clone_request_copies_type_1_item_set import (
    NoteCloneRequestCopiesType1ItemSet,
)
from .note_clone_request_exclude_item import NoteCloneRequestExcludeItem
from .note_clone_request_set import NoteCloneRequestSet
from .note_create import NoteCreate
from .note_description_clone_request import NoteDescriptionCloneRequest
from .note_description_clone_request_copies_type_1_item import (
    NoteDescriptionCloneRequestCopiesType1Item,
)
from .note_description_clone_request_copies_type_1_item_set import (
    NoteDescriptionCloneRequestCopiesType1ItemSet,
)
from .note_description_clone_request_exclude_item import (
    NoteDescriptionCloneRequestExcludeItem,
)
from .note_description_clone_request_set import NoteDescriptionCloneRequestSet
from .note_description_create import NoteDescriptionCreate
from .note_description_record import NoteDescriptionRecord
from .note_description_update import NoteDescriptionUpdate
from .note_record import NoteRecord
from .note_record_blobs import NoteRecordBlobs
from .note_record_blobs_additional_property import NoteRecordBlobsAdditionalProperty
from .note_record_lists import NoteRecordLists
from .note_record_lists_additional_property import NoteRecordListsAdditionalProperty
from .note_update import NoteUpdate
from .problem import Problem
from .problem_answer import ProblemAnswer
from .readiness_response_200 import ReadinessResponse200
from .readiness_response_503 import ReadinessResponse503
from .readiness_response_503_status import ReadinessResponse503Status
from .record import Record
from .record_input import RecordInput
from .record_page import RecordPage
from .tag_clone_request import TagCloneRequest
from .tag_clone_request_copies_type_1_item import TagCloneRequestCopiesType1Item
from .tag_clone_request_copies_type_1_item_set import TagCloneRequestCopiesType1ItemSet
from .tag_clone_request_exclude_item import TagCloneRequestExcludeItem
from .tag_clone_request_set import TagCloneRequestSet
from .tag_create import TagCreate
from .tag_record import TagRecord
from .tag_record_lists import TagRecordLists
from .tag_record_lists_additional_property import TagRecordListsAdditionalProperty
from .tag_update import TagUpdate
from .watch_job_response_200 import WatchJobResponse200
from .watch_job_response_200_event import WatchJobResponse200Event

__all__ = (
    "AttachmentCloneRequest",
    "AttachmentCloneRequestCopiesType1Item",
    "AttachmentCloneRequestCopiesType1ItemSet",
    "AttachmentCloneRequestExcludeItem",
    "AttachmentCloneRequestSet",
    "AttachmentCreate",
    "AttachmentCreateUnderMemo",
    "AttachmentRecord",
    "AttachmentRecordBlobs",
    "AttachmentRecordBlobsAdditionalProperty",
    "AttachmentUpdate",
    "BinaryValueStored",
    "CloneListItem",
    "ClonePage",
    "CloneRequest",
    "CloneRequestCopiesType1Item",
    "CloneRequestCopiesType1ItemSet",
    "CloneRequestSet",
    "CloneResult",
    "CloneResultCloneType0",
    "CloneResultConflictsItem",
    "CloneResultCreated",
    "CloneResultLinked",
    "CloneResultValues",
    "ClonedFrom",
    "EntityRef",
    "FieldError",
    "IDMap",
    "IDMapAdditionalProperty",
    "ImportResult",
    "ImportResultCloneType0",
    "ImportResultCreated",
    "ImportResultLinked",
    "ItemCloneRequest",
    "ItemCloneRequestCopiesType1Item",
    "ItemCloneRequestCopiesType1ItemSet",
    "ItemCloneRequestExcludeItem",
    "ItemCloneRequestSet",
    "ItemCreate",
    "ItemDataCloneRequest",
    "ItemDataCloneRequestCopiesType1Item",
    "ItemDataCloneRequestCopiesType1ItemSet",
    "ItemDataCloneRequestExcludeItem",
    "ItemDataCloneRequestSet",
    "ItemDataCreate",
    "ItemDataRecord",
    "ItemDataUpdate",
    "ItemRecord",
    "ItemRecordLists",
    "ItemRecordListsAdditionalProperty",
    "ItemUpdate",
    "Job",
    "JobPage",
    "JobProgress",
    "JobStatus",
    "ListAttachmentResponse200",
    "ListItemDataResponse200",
    "ListItemResponse200",
    "ListMemoResponse200",
    "ListNoteDescriptionResponse200",
    "ListNoteResponse200",
    "ListTagResponse200",
    "LivenessResponse200",
    "MemoCloneRequest",
    "MemoCloneRequestCopiesType1Item",
    "MemoCloneRequestCopiesType1ItemSet",
    "MemoCloneRequestExcludeItem",
    "MemoCloneRequestSet",
    "MemoCreate",
    "MemoRecord",
    "MemoRecordLists",
    "MemoRecordListsAdditionalProperty",
    "MemoUpdate",
    "Model",
    "ModelEntitiesItem",
    "ModelEntitiesItemAttributesItem",
    "ModelEntitiesItemAttributesItemBits",
    "ModelEntitiesItemAttributesItemType",
    "ModelEntitiesItemAttributesItemUserInfo",
    "ModelEntitiesItemRelationshipsItem",
    "ModelEntitiesItemRelationshipsItemDeleteRule",
    "ModelEntitiesItemRelationshipsItemUserInfo",
    "NoteCloneRequest",
    "NoteCloneRequestCopiesType1Item",
    "NoteCloneRequestCopiesType1ItemSet",
    "NoteCloneRequestExcludeItem",
    "NoteCloneRequestSet",
    "NoteCreate",
    "NoteDescriptionCloneRequest",
    "NoteDescriptionCloneRequestCopiesType1Item",
    "NoteDescriptionCloneRequestCopiesType1ItemSet",
    "NoteDescriptionCloneRequestExcludeItem",
    "NoteDescriptionCloneRequestSet",
    "NoteDescriptionCreate",
    "NoteDescriptionRecord",
    "NoteDescriptionUpdate",
    "NoteRecord",
    "NoteRecordBlobs",
    "NoteRecordBlobsAdditionalProperty",
    "NoteRecordLists",
    "NoteRecordListsAdditionalProperty",
    "NoteUpdate",
    "Problem",
    "ProblemAnswer",
    "ReadinessResponse200",
    "ReadinessResponse503",
    "ReadinessResponse503Status",
    "Record",
    "RecordInput",
    "RecordPage",
    "TagCloneRequest",
    "TagCloneRequestCopiesType1Item",
    "TagCloneRequestCopiesType1ItemSet",
    "TagCloneRequestExcludeItem",
    "TagCloneRequestSet",
    "TagCreate",
    "TagRecord",
    "TagRecordLists",
    "TagRecordListsAdditionalProperty",
    "TagUpdate",
    "WatchJobResponse200",
    "WatchJobResponse200Event",
)
