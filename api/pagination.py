from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200
    page_size: int  # the site's PAGE_SIZE (muster.settings), always set
